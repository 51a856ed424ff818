import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { pagePath } from '../../../../plugins/blocks/document/block';
import { useAppSelector } from '../../../app/store';
import { Button } from '../../../ui/Button';
import { fetchPage, selectPageById } from '../../pages/pagesSlice';
import { databaseApi, type DatabaseApi } from '../api';
import '../database.css';
import { CopyIcon } from '../../../ui/icons';

/**
 * Above a database's row template opened as a page (`/<templateId>`, the element's `rowTemplate`;
 * docs/api/databases.md «Row templates»): what it is — the database's title, from its data or,
 * when it has none (a Database page), its page's — and «Готово», back where the person came from
 * (or to the database's page when the template was opened by its link).
 */
export default function RowTemplateBanner({ databaseId, holderId, api = databaseApi }: { databaseId: string; holderId: string | null; api?: DatabaseApi }) {
  const { t } = useTranslation('automation');
  const navigate = useNavigate();
  const location = useLocation();
  const holder = useAppSelector((state) => (holderId ? selectPageById(state, holderId) : undefined));
  const [title, setTitle] = useState<string | null>(null);
  const holderTitle = holder?.title;
  useEffect(() => {
    let cancelled = false;
    api.database(databaseId).then(
      async ({ block }) => {
        const own = (block.data as { title?: string }).title?.trim();
        // A database without a title of its own is named by its page (the page may not be in the store: opened by its link).
        const named = own || holderTitle || (holderId ? (await fetchPage(holderId).catch(() => null))?.title : undefined);
        if (!cancelled) setTitle(named || '');
      },
      () => !cancelled && setTitle(''),
    );
    return () => {
      cancelled = true;
    };
    // The holder's title is read once, as the database's was: the name shown does not flicker.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, databaseId, holderId]);

  const done = () => {
    // Came here within the app: back there; opened by its link: to the database's page.
    if (location.key !== 'default') navigate(-1);
    else navigate(holderId ? pagePath(holderId) : '/');
  };

  return (
    <div className="db-template-banner" role="note" aria-label={t('database.templates.bannerLabel')}>
      <span className="db-template-banner-icon" aria-hidden>
        <CopyIcon size={16} />
      </span>
      <p className="db-template-banner-text">{t('database.templates.banner', { database: title || holderTitle || t('database.title') })}</p>
      <Button size="s" onClick={done}>
        {t('database.templates.done')}
      </Button>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { CopyIcon } from '../../ui/icons';

/**
 * A published page's bar: the app's name and «Копировать себе» (`onCopy`; a visitor who is not
 * signed in is told they sign in first). Also drawn by the server over the page's top
 * (src/ssr/pageTop.tsx), where nothing is wired yet.
 */
export function PublicTopbar({ onCopy, signedIn }: { onCopy?(): void; signedIn: boolean }) {
  const { t } = useTranslation();
  return (
    <header className="page-topbar public-topbar">
      <span className="public-brand">{t('appName')}</span>
      <Button size="s" onClick={onCopy} title={signedIn ? undefined : t('page.public.signInToCopy')}>
        <CopyIcon size={16} />
        {t('page.public.copyToMe')}
      </Button>
    </header>
  );
}

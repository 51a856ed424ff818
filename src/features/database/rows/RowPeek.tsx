import { useCallback, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { WireBlock } from '../../../../schema/block';
import type { WireElement } from '../../../../schema/element';
import { canEdit } from '../../../../schema/policies/page';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { useRealtime } from '../../../app/RealtimeProvider';
import { DocumentEditor } from '../../../editor/DocumentEditor';
import { Spinner } from '../../../ui/Spinner';
import { startPageLoad } from '../../pages/pageLoad';
import { pageLoaded, pageTitleEdited, renamePage } from '../../pages/pagesSlice';
import { RowFields, type RowFieldsProps } from './RowFields';
import type { RowStore } from './rowStore';

type Loaded = { status: 'loading' } | { status: 'ready'; page: WireElement; blocks: WireBlock[]; at: string | undefined } | { status: 'failed' };

/**
 * A row opened beside its database (Notion's side peek): the row's fields on top, then its page
 * in the normal editor (blocks, title), live like any page. «Открыть как страницу» goes to
 * `/<rowId>`; Escape or × closes it.
 */
export function RowPeek({
  rowId,
  onClose,
  onOpenPage,
  fields,
}: {
  rowId: string;
  onClose(): void;
  onOpenPage?(id: string): void;
  fields: Omit<RowFieldsProps, 'rowId' | 'onStore'> & { onStore(store: RowStore | null): void };
}) {
  const { t } = useTranslation('automation');
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.user);
  const realtime = useRealtime();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    let cancelled = false;
    const load = startPageLoad(rowId);
    Promise.all([load.page, load.blocks()]).then(
      ([page, { blocks, at }]) => {
        if (cancelled) return;
        dispatch(pageLoaded(page));
        setLoaded({ status: 'ready', page, blocks, at });
      },
      () => !cancelled && setLoaded({ status: 'failed' }),
    );
    return () => {
      cancelled = true;
    };
  }, [rowId, dispatch]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && !document.querySelector('.db-editor, .popover, .dialog')) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const saveTitle = useCallback(
    async (title: string) =>
      void (await dispatch(renamePage({ id: rowId, title }))
        .unwrap()
        .catch(() => undefined)),
    [dispatch, rowId],
  );
  const { onStore } = fields;
  useEffect(() => () => onStore(null), [onStore]);

  return createPortal(
    <aside className="db-peek" role="dialog" aria-label={t('database.rowPeek')} onMouseDown={(e) => e.stopPropagation()}>
      <div className="db-peek-bar">
        <button type="button" className="db-button" onClick={() => onOpenPage?.(rowId)}>
          ⤢ {t('database.openAsPage')}
        </button>
        <button type="button" className="icon-button db-icon-button" aria-label={t('database.close')} onClick={onClose}>
          ×
        </button>
      </div>
      <div className="db-peek-body">
        {loaded.status === 'loading' && <Spinner />}
        {loaded.status === 'failed' && <div className="db-error">{t('database.readFailed')}</div>}
        {loaded.status === 'ready' && (
          <DocumentEditor
            key={rowId}
            page={loaded.page}
            blocks={loaded.blocks}
            canEdit={canEdit(loaded.page.accessLevel) && !loaded.page.inTrash}
            live={realtime && user ? { connection: realtime, userId: user.id, since: loaded.at } : undefined}
            onTitleEdited={(title) => dispatch(pageTitleEdited({ id: rowId, title }))}
            saveTitle={saveTitle}
            onSyncStatus={() => undefined}
            onOpenPage={onOpenPage}
            afterTitle={<RowFields {...fields} rowId={rowId} />}
          />
        )}
      </div>
    </aside>,
    document.body,
  );
}

import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WireBlock } from '../../../schema/block';
import { canEdit, type WireElement } from '../../../schema/element';
import type { WirePageVersion, WireVersionBlock, WireVersionContent } from '../../../schema/history';
import { api } from '../../app/api';
import { DocumentEditor } from '../../editor/DocumentEditor';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { showToast } from '../../ui/Toast';
import './history.css';

const noop = () => undefined;
const noSave = async () => undefined;

/** A version's blocks as the editor reads them (each one's place: after its previous sibling). */
export function versionBlocks(pageId: string, blocks: readonly WireVersionBlock[]): WireBlock[] {
  const last = new Map<string | null, string>();
  return blocks.map((block) => {
    const placeAfter = last.get(block.parentId) ?? null;
    last.set(block.parentId, block.id);
    // The server kept them as it stored them: data of their type.
    return { id: block.id, contentType: 'Block', pageId, type: block.type, version: 1, parentId: block.parentId, placeAfter, data: block.data } as WireBlock;
  });
}

/** The plain text of a block kept by a version (a removed block's line). */
function blockText(block: WireVersionBlock): string {
  const tokens = (block.data as { tokens?: Array<{ text?: string }> }).tokens;
  return Array.isArray(tokens) ? tokens.map((t) => t.text ?? '').join('') : '';
}

const WHEN = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

type Listing = { status: 'loading' | 'failed' } | { status: 'ready'; versions: WirePageVersion[] };
type Shown = { status: 'loading' | 'failed' } | { status: 'ready'; content: WireVersionContent };

/**
 * «История версий» (docs/history.md): the page's versions, newest first, with who changed it and
 * when; a version's page read-only, the blocks it added or changed marked and those it removed
 * listed; «Восстановить эту версию» for editors (itself a version: the page before it can be
 * brought back the same way).
 */
export function HistoryDialog({ page, onClose }: { page: WireElement; onClose(): void }) {
  const { t } = useTranslation();
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const [chosen, setChosen] = useState<number | null>(null);
  const [shown, setShown] = useState<Shown>({ status: 'loading' });
  const [restoring, setRestoring] = useState(false);
  const editable = canEdit(page.accessLevel) && !page.inTrash;

  useEffect(() => {
    const controller = new AbortController();
    const base = `/api/v3/spaces/element/${encodeURIComponent(page.id)}/versions`;
    // The page as it is now is recorded first if it changed since its last version: the newest is today's page.
    api(base, { method: 'POST', signal: controller.signal })
      .catch(() => undefined)
      .then(() => api<WirePageVersion[]>(`${base}?limit=100`, { signal: controller.signal }))
      .then(
      ({ data }) => {
        setListing({ status: 'ready', versions: data });
        setChosen((c) => c ?? data[0]?.id ?? null);
      },
      () => !controller.signal.aborted && setListing({ status: 'failed' }),
    );
    return () => controller.abort();
  }, [page.id]);

  useEffect(() => {
    if (chosen === null) return;
    const controller = new AbortController();
    setShown({ status: 'loading' });
    api<WireVersionContent>(`/api/v3/spaces/element/${encodeURIComponent(page.id)}/versions/${chosen}`, { signal: controller.signal }).then(
      ({ data }) => setShown({ status: 'ready', content: data }),
      () => !controller.signal.aborted && setShown({ status: 'failed' }),
    );
    return () => controller.abort();
  }, [page.id, chosen]);

  const preview = useMemo(() => {
    if (shown.status !== 'ready') return null;
    const { content } = shown;
    const marks = content.changes
      .filter((c) => c.kind !== 'removed')
      .map((c) => `.history-preview [data-block-id="${CSS.escape(c.blockId)}"] { ${c.kind === 'added' ? 'box-shadow: inset 3px 0 0 var(--history-added); background: var(--history-added-bg);' : 'box-shadow: inset 3px 0 0 var(--history-changed); background: var(--history-changed-bg);'} }`)
      .join('\n');
    return { blocks: versionBlocks(page.id, content.blocks), marks, removed: content.changes.filter((c) => c.kind === 'removed' && c.before) };
  }, [shown, page.id]);

  const restore = async (version: WirePageVersion) => {
    setRestoring(true);
    try {
      await api(`/api/v3/spaces/element/${encodeURIComponent(page.id)}/versions/${version.id}/restore`, { method: 'POST' });
      showToast(t('history.restored'));
      onClose();
    } catch {
      showToast(t('history.restoreFailed'), 'error');
      setRestoring(false);
    }
  };

  const current = listing.status === 'ready' ? listing.versions.find((v) => v.id === chosen) : undefined;
  return (
    <Dialog title={t('history.title')} onClose={onClose} className="history-dialog">
      <div className="history-body">
        <nav className="history-list" aria-label={t('history.versions')}>
          {listing.status === 'loading' && <p className="history-note">{t('loading')}</p>}
          {listing.status === 'failed' && (
            <p className="history-note" role="alert">
              {t('history.loadFailed')}
            </p>
          )}
          {listing.status === 'ready' && listing.versions.length === 0 && <p className="history-note">{t('history.empty')}</p>}
          {listing.status === 'ready' && listing.versions.length > 0 && (
            <ul>
              {listing.versions.map((version) => (
                <li key={version.id}>
                  <button type="button" className={version.id === chosen ? 'history-version is-chosen' : 'history-version'} aria-current={version.id === chosen ? 'true' : undefined} onClick={() => setChosen(version.id)}>
                    <span className="history-when">{WHEN.format(new Date(version.createdAt))}</span>
                    <span className="history-who">{version.authors.map((a) => a.name || a.email).join(', ') || t('history.someone')}</span>
                    <span className="history-what">{version.kind === 'restore' ? t('history.restoreOf') : t('history.changed', { count: version.changed })}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <section className="history-preview" aria-label={t('history.preview')}>
          {shown.status === 'loading' && chosen !== null && <p className="history-note">{t('loading')}</p>}
          {shown.status === 'failed' && (
            <p className="history-note" role="alert">
              {t('history.loadFailed')}
            </p>
          )}
          {preview && current && shown.status === 'ready' && (
            <>
              <style>{preview.marks}</style>
              <div className="history-toolbar">
                <span className="history-legend">
                  <span className="history-key is-added" /> {t('history.added')} <span className="history-key is-changed" /> {t('history.changedKey')}
                </span>
                {editable && (
                  <Button size="s" disabled={restoring} onClick={() => void restore(current)}>
                    {t('history.restore')}
                  </Button>
                )}
              </div>
              <DocumentEditor key={current.id} page={{ ...page, title: shown.content.version.title }} blocks={preview.blocks} canEdit={false} onTitleEdited={noop} saveTitle={noSave} onSyncStatus={noop} published />
              {preview.removed.length > 0 && (
                <div className="history-removed">
                  <h3>{t('history.removed', { count: preview.removed.length })}</h3>
                  <ul>
                    {preview.removed.map((c) => (
                      <li key={c.blockId}>{blockText(c.before!) || t('history.noText')}</li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          )}
        </section>
      </div>
    </Dialog>
  );
}

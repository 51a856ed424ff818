import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WireBlock } from '../../../schema/block';
import type { DatabaseEvent } from '../../../schema/database';
import type { WireElement } from '../../../schema/element';
import { canEdit } from '../../../schema/policies/page';
import type { WireCellChange, WirePageVersion, WireVersionBlock, WireVersionContent } from '../../../schema/history';
import { channels, REALTIME_EVENTS, type ElementVersionRecorded } from '../../../schema/realtime';
import { api, elementUrl } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useRealtime } from '../../app/RealtimeProvider';
import { useAppSelector } from '../../app/store';
import { DocumentEditor } from '../../editor/DocumentEditor';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { showToast } from '../../ui/Toast';
import { decorateChanges } from './decorateChanges';
import { shownVersion } from './textChanges';
import { changeValueText, historyItems, itemTimes, mergeChanges, withDays } from './rowChanges';
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

/** Versions newest first, each once (the newer copy kept). */
export function mergeVersions(...lists: ReadonlyArray<readonly WirePageVersion[]>): WirePageVersion[] {
  const byId = new Map<number, WirePageVersion>();
  for (const list of lists) for (const version of list) byId.set(version.id, version);
  return [...byId.values()].sort((a, b) => b.id - a.id);
}

type Listing = { status: 'loading' | 'failed' } | { status: 'ready'; versions: WirePageVersion[] };
type Shown = { status: 'loading' | 'failed' } | { status: 'ready'; content: WireVersionContent };

/** A row's property changes (docs/history.md «A row's property changes»). */
const rowHistoryUrl = (rowId: string) => `/api/v3/spaces/row/${encodeURIComponent(rowId)}/history`;

/**
 * «История версий» (docs/history.md): the page's versions, newest first, with who changed it and
 * when; a version's page read-only, the blocks it added or changed marked and those it removed
 * listed; «Восстановить эту версию» for editors (itself a version: the page before it can be
 * brought back the same way). A database row's page lists its property changes among the versions
 * by time — «Анна · Статус: В работе → Готово · 12:04» — each with «Вернуть» (on hover) for
 * editors: the earlier value written back as a cell write, which the row's fields and the grid get live.
 */
export function HistoryDialog({ page, onClose }: { page: WireElement; onClose(): void }) {
  const { t } = useTranslation();
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const [chosen, setChosen] = useState<number | null>(null);
  const [shown, setShown] = useState<Shown>({ status: 'loading' });
  const [restoring, setRestoring] = useState(false);
  /** Versions heard of since the panel opened (`versionRecorded`, or read again after a reconnect), and which arrived live. */
  const [heard, setHeard] = useState<{ versions: WirePageVersion[]; fresh: Set<number> }>({ versions: [], fresh: new Set() });
  const realtime = useRealtime();
  const userId = useAppSelector((state) => state.auth.user?.id ?? null);
  const editable = canEdit(page.accessLevel) && !page.inTrash;
  const isRow = !!page.databaseId;
  const [changes, setChanges] = useState<WireCellChange[]>([]);
  const [changesFailed, setChangesFailed] = useState(false);
  /** Reads the row's property changes again (on opening, on every (re)join, after a restore). */
  const readChanges = useMemo(
    () => (signal?: AbortSignal) =>
      isRow
        ? api<WireCellChange[]>(`${rowHistoryUrl(page.id)}?limit=100`, { signal }).then(
            ({ data }) => {
              setChanges((c) => mergeChanges(c, data));
              setChangesFailed(false);
            },
            () => !signal?.aborted && setChangesFailed(true),
          )
        : Promise.resolve(),
    [isRow, page.id],
  );

  // New versions appear at the top as they are recorded (by the historian, another panel
  // opening, someone's restore); the version shown stays. Every (re)join reads the list again:
  // what was recorded while the connection was down, or before the join, is not missed.
  useEffect(() => {
    if (!realtime || !userId) return;
    const base = `${elementUrl(page.id)}/versions`;
    const controller = new AbortController();
    const take = (versions: WirePageVersion[], fresh: boolean) =>
      setHeard((h) => ({ versions: mergeVersions(h.versions, versions), fresh: fresh ? new Set([...h.fresh, ...versions.map((v) => v.id)]) : h.fresh }));
    const leave = realtime.subscribe(channels.element(page.id, userId), {
      onJoined: () => {
        void api<WirePageVersion[]>(`${base}?limit=100`, { signal: controller.signal }).then(
          ({ data }) => take(data, false),
          () => undefined,
        );
        void readChanges(controller.signal);
      },
      onEvent(event, payload) {
        if (event !== REALTIME_EVENTS.versionRecorded) return;
        const { version } = payload as unknown as ElementVersionRecorded;
        take([version], true);
        setChosen((c) => c ?? version.id);
      },
    });
    return () => {
      controller.abort();
      leave();
    };
  }, [realtime, userId, page.id, readChanges]);

  useEffect(() => {
    const controller = new AbortController();
    void readChanges(controller.signal);
    return () => controller.abort();
  }, [readChanges]);

  // A row's cells changed by anyone while the panel is open (told on the channel of the page
  // holding its database, as the row's fields hear them): the changes are read again.
  const holderId = isRow ? page.parentId : null;
  useEffect(() => {
    if (!realtime || !userId || !holderId) return;
    const controller = new AbortController();
    const leave = realtime.subscribe(channels.element(holderId, userId), {
      onEvent(event, payload) {
        if (event !== REALTIME_EVENTS.database) return;
        const { change } = payload as unknown as DatabaseEvent;
        if (change.kind === 'cells' && change.rowId === page.id) void readChanges(controller.signal);
      },
    });
    return () => {
      controller.abort();
      leave();
    };
  }, [realtime, userId, holderId, page.id, readChanges]);

  useEffect(() => {
    const controller = new AbortController();
    const base = `${elementUrl(page.id)}/versions`;
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
    api<WireVersionContent>(`${elementUrl(page.id)}/versions/${chosen}`, { signal: controller.signal }).then(
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
      .map(
        (c) =>
          `.history-preview [data-block-id="${CSS.escape(c.blockId)}"] { ${c.kind === 'added' ? 'box-shadow: inset 3px 0 0 var(--history-added); background: var(--history-added-bg);' : 'box-shadow: inset 3px 0 0 var(--history-changed); background: var(--history-changed-bg);'} }`,
      )
      .join('\n');
    // A changed block's text shows the words removed (struck out) and added (marked) in it.
    const { blocks, spans } = shownVersion(content);
    return {
      blocks: versionBlocks(page.id, blocks),
      marks,
      decorate: decorateChanges(spans),
      removed: content.changes.filter((c) => c.kind === 'removed' && c.before),
    };
  }, [shown, page.id]);
  const versions = useMemo(() => (listing.status === 'ready' ? mergeVersions(listing.versions, heard.versions) : []), [listing, heard.versions]);
  // Marked as new: heard live and not in the list as it was read (the panel's own opening records one).
  const fresh = useMemo(() => {
    const read = new Set(listing.status === 'ready' ? listing.versions.map((v) => v.id) : []);
    return new Set([...heard.fresh].filter((id) => !read.has(id)));
  }, [listing, heard.fresh]);

  const items = useMemo(() => historyItems(versions, changes), [versions, changes]);
  const rows = useMemo(() => withDays(items), [items]);
  const timeOf = useMemo(() => itemTimes(items), [items]);

  const restoreChange = async (change: WireCellChange) => {
    setRestoring(true);
    try {
      await api(`${rowHistoryUrl(page.id)}/${change.id}/restore`, { method: 'POST' });
      showToast(t('history.valueRestored', { field: change.field.name }));
      await readChanges();
    } catch (error) {
      showToast(errorMessage(t, error, { generic: 'history.valueRestoreFailed' }), 'error');
    } finally {
      setRestoring(false);
    }
  };

  const restore = async (version: WirePageVersion) => {
    setRestoring(true);
    try {
      await api(`${elementUrl(page.id)}/versions/${version.id}/restore`, { method: 'POST' });
      showToast(t('history.restored'));
      onClose();
    } catch {
      showToast(t('history.restoreFailed'), 'error');
      setRestoring(false);
    }
  };

  const current = versions.find((v) => v.id === chosen);
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
          {listing.status === 'ready' && items.length === 0 && <p className="history-note">{t('history.empty')}</p>}
          {changesFailed && (
            <p className="history-note" role="alert">
              {t('history.changesFailed')}
            </p>
          )}
          {items.length > 0 && (
            <ul>
              {rows.map((item) => {
                if (item.kind === 'day') {
                  return (
                    <li key={`day-${item.key}`} className="history-day">
                      {item.relative ? t(`history.${item.relative}`) : item.date}
                    </li>
                  );
                }
                if (item.kind === 'change') {
                  const { change } = item;
                  const from = changeValueText(change, 'from');
                  return (
                    <li
                      key={`change-${change.id}`}
                      className={change.restorable ? 'history-change' : 'history-change is-stale'}
                      title={change.restorable ? undefined : t('history.fieldRetyped')}
                    >
                      <span className="history-change-line">
                        <span className="history-change-who">{change.author.name || t('history.someone')}</span>
                        {' · '}
                        <span className="history-change-field">{change.field.name}</span>
                        {': '}
                        <span className="history-change-from">{from}</span>
                        {' → '}
                        <span className="history-change-to">{changeValueText(change, 'to')}</span>
                        {' · '}
                        <time className="history-change-when" dateTime={change.at}>
                          {timeOf(change.at)}
                        </time>
                      </span>
                      {editable && change.restorable && (
                        <button
                          type="button"
                          className="history-change-restore"
                          disabled={restoring}
                          title={t('history.restoreValue', { value: from })}
                          onClick={() => void restoreChange(change)}
                        >
                          {t('history.restoreValueShort')}
                        </button>
                      )}
                    </li>
                  );
                }
                const { version } = item;
                return (
                  <li key={version.id} className={fresh.has(version.id) ? 'is-fresh' : undefined}>
                    <button
                      type="button"
                      className={version.id === chosen ? 'history-version is-chosen' : 'history-version'}
                      aria-current={version.id === chosen ? 'true' : undefined}
                      onClick={() => setChosen(version.id)}
                    >
                      <time className="history-when" dateTime={version.createdAt}>
                        {timeOf(version.createdAt)}
                      </time>
                      <span className="history-who">{version.authors.map((a) => a.name || a.email).join(', ') || t('history.someone')}</span>
                      <span className="history-what">
                        {version.kind === 'restore'
                          ? t('history.restoreOf')
                          : version.changed === 0
                            ? t('history.titleOnly')
                            : t('history.changed', { count: version.changed })}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </nav>
        <section className="history-preview" aria-label={t('history.preview')}>
          {shown.status === 'loading' && chosen !== null && <p className="history-note">{t('loading')}</p>}
          {isRow && chosen === null && listing.status === 'ready' && <p className="history-note">{t('history.noBodyVersions')}</p>}
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
                  <span className="history-key is-added" /> {t('history.added')} <span className="history-key is-changed" /> {t('history.changedKey')}{' '}
                  <del className="diff-removed">{t('history.removedKey')}</del>
                </span>
                {editable && (
                  <Button size="s" disabled={restoring} onClick={() => void restore(current)}>
                    {t('history.restore')}
                  </Button>
                )}
              </div>
              <DocumentEditor
                key={current.id}
                page={{ ...page, title: shown.content.version.title }}
                blocks={preview.blocks}
                decorate={preview.decorate}
                carets={false}
                canEdit={false}
                onTitleEdited={noop}
                saveTitle={noSave}
                onSyncStatus={noop}
                published
                // A synced block's page (its bar's «История»): its blocks without a title, as the block shows them.
                embedded={page.synced ? { label: t('history.title') } : undefined}
              />
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

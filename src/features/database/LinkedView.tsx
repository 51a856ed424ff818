import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { databaseDataSchema, type DatabaseData } from '../../../schema/blocks/database';
import type { WireElement } from '../../../schema/element';
import { canEdit } from '../../../schema/policies/page';
import { channels, REALTIME_EVENTS } from '../../../schema/realtime';
import { ApiRequestError } from '../../app/api';
import { useRealtime } from '../../app/RealtimeProvider';
import { useAppSelector } from '../../app/store';
import type { DatabaseHost } from '../../editor/blocks/databaseHost';
import { Button } from '../../ui/Button';
import { databaseApi, type DatabaseApi, type DatabaseBlock as WireDatabaseBlock } from './api';
import DatabaseBlock from './DatabaseBlock';
import './database.css';

/** Why a linked view shows a message instead of its table. */
export type LinkedViewProblem = 'gone' | 'noAccess' | 'failed';

type Source =
  | { status: 'loading' }
  | { status: 'ready'; block: WireDatabaseBlock; data: DatabaseData; page: WireElement }
  | { status: 'problem'; problem: LinkedViewProblem };

/** The lookup's refusal as the screen says it: 404 (the view, its database or its page deleted) and 403 (no access to the source) are not retried. */
export function linkedViewProblem(error: unknown): LinkedViewProblem {
  if (error instanceof ApiRequestError && error.status === 404) return 'gone';
  if (error instanceof ApiRequestError && error.status === 403) return 'noAccess';
  return 'failed';
}

/**
 * What the lookup answered, as the screen keeps it: an answer for another database replaces
 * what is there; for the same one, only a newer version does (an older read or event that comes
 * late never undoes a change), and the same version keeps what is there.
 */
export function nextSource(current: Source, block: WireDatabaseBlock, page: WireElement, layoutId: string): Source {
  if (current.status === 'ready' && current.block.id === block.id && current.block.version >= block.version) {
    // Nothing new (a read again on joining the channel): the same objects, so nothing below draws again.
    return JSON.stringify(current.page) === JSON.stringify(page) ? current : { ...current, page };
  }
  const parsed = databaseDataSchema.safeParse(block.data);
  if (!parsed.success || !parsed.data.view.layouts.some((l) => l.uid === layoutId)) return { status: 'problem', problem: 'gone' };
  return { status: 'ready', block, data: parsed.data, page };
}

/**
 * A page of type WidgetView (a linked view, docs/web-app.md «Linked views»): one view of a
 * database that lives on another page, found by the view's uid (`GET database/view/{uid}`). It
 * shows as that database's Table view of the one view — rows editable when the person may edit
 * the source — with a link to the source; a deleted or inaccessible source is said in words.
 * Changes of the database (fields, views, deleted, restored) come on the source page's channel.
 */
export default function LinkedView({ page, api = databaseApi }: { page: WireElement; api?: DatabaseApi }) {
  const { t } = useTranslation('automation');
  const navigate = useNavigate();
  const layoutId = page.defaultLayoutId;
  const [source, setSource] = useState<Source>(layoutId ? { status: 'loading' } : { status: 'problem', problem: 'gone' });
  const reads = useRef(0);

  const load = useCallback(() => {
    if (!layoutId) return;
    const read = ++reads.current;
    api.linkedView(layoutId).then(
      ({ block, page: holder }) => read === reads.current && setSource((current) => nextSource(current, block, holder, layoutId)),
      (error: unknown) => read === reads.current && setSource({ status: 'problem', problem: linkedViewProblem(error) }),
    );
  }, [api, layoutId]);
  useEffect(load, [load]);

  // Kept as plain values: a read that answers the same source changes no subscription and no host.
  const holder = source.status === 'ready' ? source.page : null;
  const holderId = holder?.id ?? null;
  const workspaceId = holder?.workspaceId ?? null;
  const editable = !!holder && canEdit(holder.accessLevel) && !holder.inTrash && !page.inTrash;
  const databaseId = source.status === 'ready' ? source.block.id : null;
  const realtime = useRealtime();
  const userId = useAppSelector((state) => state.auth.user?.id ?? null);
  // The database's own changes (fields, views; deleted, restored) on its page's channel: read again.
  useEffect(() => {
    if (!realtime || !userId || !holderId || !databaseId) return;
    return realtime.subscribe(channels.element(holderId, userId), {
      onJoined: load,
      onEvent(event, payload) {
        const touched =
          (event === REALTIME_EVENTS.edit && (payload.block as { id?: string } | undefined)?.id === databaseId) ||
          (event === REALTIME_EVENTS.add && Array.isArray(payload.blocks) && payload.blocks.some((b: { id?: string }) => b.id === databaseId)) ||
          (event === REALTIME_EVENTS.remove && Array.isArray(payload.ids) && payload.ids.includes(databaseId));
        if (touched) load();
      },
    });
  }, [realtime, userId, holderId, databaseId, load]);

  const host = useMemo<DatabaseHost | null>(
    () =>
      holderId && databaseId && layoutId
        ? {
            pageId: holderId,
            workspaceId,
            canEdit: editable,
            // A field or view changed here: the server's answer is the database as it is now.
            receiveBlock: (block) => setSource((current) => (current.status === 'ready' ? nextSource(current, block, current.page, layoutId) : current)),
            isSaved: () => true,
            flush: async () => undefined,
            live: realtime && userId ? { connection: realtime, userId } : null,
            fillDatabaseId: databaseId,
            openPage: (id) => navigate(`/${id}`),
          }
        : null,
    [holderId, workspaceId, editable, databaseId, layoutId, realtime, userId, navigate],
  );

  if (source.status === 'loading') return <p className="type-page-note">{t('database.loading')}</p>;
  if (source.status === 'problem' || !host || !layoutId) {
    const problem = source.status === 'problem' ? source.problem : 'gone';
    return (
      <div className="db-linked-problem" role="status">
        <p className="db-linked-problem-title">{t(`database.linked.${problem}`)}</p>
        <p className="type-page-note">{t(`database.linked.${problem}Hint`)}</p>
        {problem === 'failed' && (
          <Button kind="outline" size="s" onClick={load}>
            {t('database.linked.retry')}
          </Button>
        )}
      </div>
    );
  }
  return (
    <div className="db-linked">
      <div className="db-linked-source">
        <span className="db-linked-label">
          {t('database.linked.label')} <span className="db-linked-name">«{source.page.title || t('database.untitledRow')}»</span>
        </span>
        <Link className="db-linked-open" to={`/${source.page.id}`}>
          {t('database.linked.openSource')} →
        </Link>
      </div>
      <DatabaseBlock
        databaseId={source.block.id}
        config={source.data.config}
        view={source.data.view}
        defaultTemplate={source.data.defaultTemplate ?? null}
        host={host}
        fill
        api={api}
        linkedViewId={layoutId}
      />
    </div>
  );
}

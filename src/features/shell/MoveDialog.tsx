import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WireElement } from '../../../schema/element';
import { canEdit, mayBePrivateRootOf } from '../../../schema/policies/page';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Dialog } from '../../ui/Dialog';
import { PageIcon } from '../../ui/icons';
import { showToast } from '../../ui/Toast';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { creatableRootSections, sectionsShown } from '../workspaces/workspaceRules';
import { pageActionError } from '../pages/pageErrors';
import { loadSection, movePage } from '../pages/pagesSlice';

type Target = { kind: 'section'; id: 'private' | 'all' } | { kind: 'page'; page: WireElement };

/** «Переместить в…»: a page the caller can edit (loaded in the sidebar) or a section root. */
export function MoveDialog({ page, onClose }: { page: WireElement; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  // The page moves within its own workspace: that workspace's rules say which section roots it may go to.
  const workspace = useAppSelector((state) =>
    page.workspaceId ? (state.workspaces.list.find((w) => w.id === page.workspaceId) ?? null) : selectActiveWorkspace(state),
  );
  const entities = useAppSelector((state) => state.pages.entities);
  const userId = useAppSelector((state) => state.auth.user?.id ?? null);
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);

  const targets = useMemo<Target[]>(() => {
    const q = query.trim().toLowerCase();
    // A page moved to a section root is as if made there: the sections the caller may create pages
    // in; the private one only for a page of their own (nobody moves someone else's page there).
    const sections = creatableRootSections(workspace)
      .filter((id) => id !== 'private' || (userId !== null && mayBePrivateRootOf(page, userId)))
      .map((id): Target => ({ kind: 'section', id }));
    const pages = Object.values(entities)
      .filter((p): p is WireElement => !!p)
      .filter((p) => p.id !== page.id && !p.path.includes(page.id) && p.id !== page.parentId && !p.inTrash && canEdit(p.accessLevel))
      .filter((p) => !page.workspaceId || !p.workspaceId || p.workspaceId === page.workspaceId)
      .filter((p) => !q || (p.title || t('untitled')).toLowerCase().includes(q))
      .sort((a, b) => (a.title || '').localeCompare(b.title || '', 'ru'))
      .map((p): Target => ({ kind: 'page', page: p }));
    const sectionHits = sections.filter(
      (s) =>
        s.kind === 'section' &&
        (!q ||
          t(`page.move.section${s.id === 'private' ? 'Private' : 'All'}`)
            .toLowerCase()
            .includes(q)),
    );
    return [...sectionHits, ...pages];
  }, [entities, page, query, t, userId, workspace]);

  const move = async (target: Target) => {
    setBusy(true);
    try {
      const dst = target.kind === 'section' ? target.id : target.page.id;
      await dispatch(movePage({ id: page.id, dst })).unwrap();
      showToast(t('page.move.moved'));
      void dispatch(loadSection('private'));
      if (sectionsShown(workspace).includes('all')) void dispatch(loadSection('all'));
      onClose();
    } catch (error) {
      showToast(pageActionError(t, error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={t('page.move.title')} onClose={onClose} className="move-dialog">
      <input
        className="input dialog-search"
        type="search"
        autoFocus
        value={query}
        placeholder={t('page.move.search')}
        aria-label={t('page.move.search')}
        onChange={(e) => setQuery(e.target.value)}
      />
      {targets.length === 0 ? (
        <p className="dialog-empty">{t('page.move.nothing')}</p>
      ) : (
        <ul className="pick-list">
          {targets.map((target) => (
            <li key={target.kind === 'section' ? `section-${target.id}` : target.page.id}>
              <button type="button" className="menu-item pick-item" disabled={busy} onClick={() => void move(target)}>
                <span className="menu-item-icon" aria-hidden>
                  {target.kind === 'page' && target.page.icon ? target.page.icon : <PageIcon size={16} />}
                </span>
                <span className="pick-title">
                  {target.kind === 'section' ? t(`page.move.section${target.id === 'private' ? 'Private' : 'All'}`) : target.page.title || t('untitled')}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

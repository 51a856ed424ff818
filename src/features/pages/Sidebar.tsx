import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useNavigate } from 'react-router-dom';
import { newId } from '../../../schema/ids';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { PageIcon, PlusIcon } from '../../ui/icons';
import { signOut } from '../auth/authSlice';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { createNote, loadSection, selectSectionPages } from './pagesSlice';

/** Creates a Note in a section and opens it. */
export function useCreatePage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const create = async (section: 'private' | 'all' = 'private') => {
    setBusy(true);
    try {
      const page = await dispatch(createNote({ section, id: newId() })).unwrap();
      navigate(`/${page.id}`);
    } finally {
      setBusy(false);
    }
  };
  return { create, busy };
}

function Section({ section }: { section: 'private' | 'all' }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const pages = useAppSelector((state) => selectSectionPages(state, section));
  const { create, busy } = useCreatePage();

  useEffect(() => {
    void dispatch(loadSection(section));
  }, [dispatch, section]);

  return (
    <section className="sidebar-section" aria-label={t(`sidebar.sections.${section}`)}>
      <div className="sidebar-section-header">
        <span>{t(`sidebar.sections.${section}`)}</span>
        <Button
          kind="flat"
          size="xxs"
          aria-label={t('sidebar.newPage')}
          title={t('sidebar.newPage')}
          disabled={busy}
          onClick={() => void create(section)}
        >
          <PlusIcon size={16} />
        </Button>
      </div>
      {pages.length === 0 ? (
        <p className="sidebar-empty">{t('sidebar.emptySection')}</p>
      ) : (
        <ul className="sidebar-pages">
          {pages.map((page) => (
            <li key={page.id}>
              <NavLink to={`/${page.id}`} className="sidebar-page">
                <span className="sidebar-page-icon" aria-hidden>
                  {page.icon ?? <PageIcon size={16} />}
                </span>
                <span className={page.title ? 'sidebar-page-title' : 'sidebar-page-title is-untitled'}>
                  {page.title || t('untitled')}
                </span>
              </NavLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The page tree: the workspace, its sections with their pages, and the signed-in user. */
export function Sidebar() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const workspace = useAppSelector(selectActiveWorkspace);
  const user = useAppSelector((state) => state.auth.user);
  const showAll = workspace && !workspace.private && workspace.role !== 'guest';

  return (
    <nav className="sidebar">
      <div className="sidebar-workspace">
        <span className="sidebar-avatar" aria-hidden>
          {(workspace?.name ?? '?').slice(0, 1).toUpperCase()}
        </span>
        <span className="sidebar-workspace-name">{workspace?.name}</span>
      </div>
      <div className="sidebar-scroll">
        {showAll && <Section section="all" />}
        {workspace?.role !== 'guest' && <Section section="private" />}
      </div>
      <div className="sidebar-footer">
        <span className="sidebar-user" title={user?.email}>
          {user?.email}
        </span>
        <Button
          kind="flat"
          size="xs"
          onClick={() => void dispatch(signOut()).then(() => navigate('/login', { replace: true }))}
        >
          {t('sidebar.signOut')}
        </Button>
      </div>
    </nav>
  );
}

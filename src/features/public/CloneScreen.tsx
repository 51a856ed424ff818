import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useAppSelector } from '../../app/store';
import { Spinner } from '../../ui/Spinner';
import { showToast } from '../../ui/Toast';
import { pageActionError, reportCloneError } from '../pages/pageErrors';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { copyPublicPage } from './copyPublicPage';
import { useDocumentTitle } from '../../app/documentTitle';

/** /clone/:uidToClone (signed in): copies a page into the caller's private section and opens the copy. */
export function CloneScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.clone'));
  const { uidToClone = '' } = useParams();
  const navigate = useNavigate();
  const workspace = useAppSelector(selectActiveWorkspace);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !workspace) return;
    started.current = true;
    copyPublicPage(uidToClone, workspace.id)
      .then((id) => navigate(`/${id}`, { replace: true }))
      .catch((error: unknown) => {
        reportCloneError(error, { pageId: uidToClone, toElement: null, workspaceId: workspace.id });
        showToast(`${t('page.errors.clone')}: ${pageActionError(t, error)}`, 'error');
        navigate('/', { replace: true });
      });
  }, [navigate, t, uidToClone, workspace]);

  return (
    <div className="clone-screen" role="status">
      <Spinner />
      <span>{t('page.public.copying')}</span>
    </div>
  );
}

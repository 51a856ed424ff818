import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { WireBlock } from '../../../schema/block';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import { api, ApiRequestError } from '../../app/api';
import { useAppSelector } from '../../app/store';
import { DocumentEditor } from '../../editor/DocumentEditor';
import { ErrorScreen, type ErrorKind } from '../../ui/ErrorScreen';
import { Spinner } from '../../ui/Spinner';
import { StaticPageHeader } from '../pages/StaticPageHeader';
import { PublicTopbar } from './PublicTopbar';
import { useServerTopTakeover } from '../../app/serverTop';
import '../pages/page.css';
import './public.css';
import { useDocumentTitle } from '../../app/documentTitle';

type State = { status: 'loading' } | { status: 'ready'; page: WireElement; blocks: WireBlock[] } | { status: 'failed'; kind: ErrorKind };

const noop = () => undefined;
const noSave = async () => undefined;

/** A published page for anyone, signed in or not: read-only, no sidebar; «Копировать к себе» clones it after sign-in. */
export function PublicPageScreen({
  pageId,
  loginIfPrivate = false,
  notPublicKind = 'notFound',
  openAliasById = false,
}: {
  pageId: string;
  loginIfPrivate?: boolean;
  notPublicKind?: ErrorKind;
  /** A signed-in visitor of the alias address goes on to the page's own address, where a member gets the editor. */
  openAliasById?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const authStatus = useAppSelector((state) => state.auth.status);
  const user = useAppSelector((state) => state.auth.user);
  const [state, setState] = useState<State>({ status: 'loading' });
  const signedIn = authStatus === 'signedIn';

  useEffect(() => {
    let cancelled = false;
    api<unknown>(`/api/v3/spaces/element/public/${encodeURIComponent(pageId)}`)
      .then(({ data, included }) => {
        if (cancelled) return;
        const page = wireElementSchema.parse(data);
        if (openAliasById && signedIn && page.id !== pageId) {
          navigate(`/${page.id}`, { replace: true });
          return;
        }
        const blocks = ((included ?? []) as { contentType?: string }[]).filter((item) => item.contentType === 'Block') as unknown as WireBlock[];
        setState({ status: 'ready', page, blocks });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        // Not public: a signed-out visitor of a page link signs in to see it.
        if (loginIfPrivate && error instanceof ApiRequestError && error.status === 404) {
          navigate(`/login?next=${encodeURIComponent(`/${pageId}`)}`, { replace: true });
          return;
        }
        setState({ status: 'failed', kind: error instanceof ApiRequestError && error.status !== undefined ? notPublicKind : 'network' });
      });
    return () => {
      cancelled = true;
    };
  }, [pageId, loginIfPrivate, navigate, notPublicKind, openAliasById, signedIn]);

  useDocumentTitle(state.status === 'ready' ? state.page.title || t('untitled') : null);

  // The top the server drew goes once this screen draws the page (or says why it cannot).
  useServerTopTakeover(state.status !== 'loading');

  if (state.status === 'loading') return <Spinner />;
  if (state.status === 'failed') return <ErrorScreen kind={state.kind} email={user?.email} />;
  const { page, blocks } = state;
  const copyTarget = `/clone/${encodeURIComponent(page.id)}`;
  const copyToMe = () => {
    if (authStatus === 'signedIn') navigate(copyTarget);
    else navigate(`/login?next=${encodeURIComponent(copyTarget)}`);
  };

  return (
    <div className="public-page page">
      <PublicTopbar onCopy={copyToMe} signedIn={authStatus === 'signedIn'} />
      <StaticPageHeader page={page} />
      <DocumentEditor page={page} blocks={blocks} canEdit={false} onTitleEdited={noop} saveTitle={noSave} onSyncStatus={noop} published />
    </div>
  );
}

import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { WireBlock } from '../../../schema/block';
import type { EmbedData } from '../../../plugins/blocks/embed/block';
import type { WireElement } from '../../../schema/element';
import { newId } from '../../../schema/ids';
import { channels, REALTIME_EVENTS } from '../../../schema/realtime';
import { ApiRequestError } from '../../app/api';
import { useRealtime } from '../../app/RealtimeProvider';
import { useAppSelector } from '../../app/store';
import { blockApi } from '../../editor/blockApi';
import { Button } from '../../ui/Button';
import { IFRAME_SANDBOX, readIframeUrl, type IframeUrlProblem } from './iframeUrl';

/** The page's embed block: the first block of type embed (docs/web-app.md, «Iframe pages»). */
const embedOf = (blocks: readonly WireBlock[]) => blocks.find((b) => b.type === 'embed') ?? null;
const urlOf = (block: WireBlock | null) => (block ? (block.data as EmbedData).url : null);

/** Keeps the embed block as the server has it: others' changes come on the page's channel. */
function useLiveEmbed(page: WireElement, blocks: readonly WireBlock[]) {
  const [block, setBlock] = useState<WireBlock | null>(() => embedOf(blocks));
  const connection = useRealtime();
  const userId = useAppSelector((state) => state.auth.user?.id);
  useEffect(() => {
    if (!connection || !userId) return;
    const take = (incoming: unknown) => {
      const next = incoming as WireBlock | undefined;
      if (next?.type !== 'embed') return;
      setBlock((current) => (!current || current.id === next.id ? (current && current.version >= next.version ? current : next) : current));
    };
    return connection.subscribe(channels.element(page.id, userId), {
      onEvent: (event, payload) => {
        if (event === REALTIME_EVENTS.edit) take(payload.block);
        if (event === REALTIME_EVENTS.add && Array.isArray(payload.blocks)) payload.blocks.forEach(take);
      },
    });
  }, [connection, page.id, userId]);
  return [block, setBlock] as const;
}

/** Writes the address: a new embed block, or the existing one (once more on the server's version after a conflict). */
async function saveEmbed(page: WireElement, block: WireBlock | null, url: string): Promise<WireBlock> {
  const data: EmbedData = { url, scale: block ? (block.data as EmbedData).scale : 1, align: block ? (block.data as EmbedData).align : 'center' };
  if (!block) return blockApi.createBlock({ id: newId(), pageId: page.id, type: 'embed', data, parentId: null, placeAfter: null });
  try {
    return await blockApi.updateBlock(block.id, { version: block.version, type: 'embed', data });
  } catch (error) {
    const server = error instanceof ApiRequestError && error.status === 422 ? (error.data as WireBlock | null) : null;
    if (!server || typeof server.version !== 'number') throw error;
    // Someone changed it meanwhile: the address typed here is the newer wish.
    return blockApi.updateBlock(block.id, { version: server.version, type: 'embed', data });
  }
}

/**
 * A page of type Iframe: another site's page in a sandboxed frame. Editors set or change its
 * address (http or https only, checked as typed); readers see the frame alone.
 */
export function IframeScreen({ page, blocks, editable }: { page: WireElement; blocks: readonly WireBlock[]; editable: boolean }) {
  const { t } = useTranslation();
  const [block, setBlock] = useLiveEmbed(page, blocks);
  const url = urlOf(block);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<IframeUrlProblem | 'saveFailed' | null>(null);
  const [saving, setSaving] = useState(false);
  const showForm = editable && (editing || !url);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readIframeUrl(draft, window.location.origin);
    if ('problem' in read) return setProblem(read.problem);
    setProblem(null);
    setSaving(true);
    try {
      setBlock(await saveEmbed(page, block, read.url));
      setEditing(false);
    } catch {
      setProblem('saveFailed');
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="iframe-body">
      {showForm ? (
        <form className="iframe-form" onSubmit={(event) => void submit(event)} noValidate>
          <label className="iframe-form-label" htmlFor={`iframe-url-${page.id}`}>
            {t('pageTypes.iframe.urlLabel')}
          </label>
          <div className="iframe-form-row">
            <input
              id={`iframe-url-${page.id}`}
              className="input iframe-form-input"
              inputMode="url"
              autoComplete="url"
              spellCheck={false}
              placeholder="https://…"
              value={draft}
              aria-invalid={problem !== null}
              aria-describedby={problem ? `iframe-url-error-${page.id}` : `iframe-url-hint-${page.id}`}
              onChange={(event) => {
                setDraft(event.target.value);
                if (problem) setProblem(null);
              }}
            />
            <Button type="submit" size="s" disabled={saving}>
              {t('pageTypes.iframe.save')}
            </Button>
            {url && (
              <Button kind="flat" size="s" onClick={() => setEditing(false)}>
                {t('pageTypes.iframe.cancel')}
              </Button>
            )}
          </div>
          {problem ? (
            <p className="iframe-form-error" id={`iframe-url-error-${page.id}`} role="alert">
              {t(`pageTypes.iframe.errors.${problem}`)}
            </p>
          ) : (
            <p className="type-page-note" id={`iframe-url-hint-${page.id}`}>
              {t('pageTypes.iframe.hint')}
            </p>
          )}
        </form>
      ) : (
        url && (
          <div className="iframe-bar">
            <a className="iframe-url" href={url} target="_blank" rel="noopener noreferrer" title={t('pageTypes.iframe.openTab')}>
              {url}
            </a>
            {editable && (
              <Button
                kind="outline"
                size="xs"
                onClick={() => {
                  setDraft(url);
                  setEditing(true);
                }}
              >
                {t('pageTypes.iframe.change')}
              </Button>
            )}
          </div>
        )
      )}
      {url ? (
        <>
          <iframe
            key={url}
            className="iframe-frame"
            src={url}
            title={page.title || t('untitled')}
            sandbox={IFRAME_SANDBOX}
            referrerPolicy="no-referrer"
            loading="lazy"
          />
          <p className="type-page-note">{t('pageTypes.iframe.refusedHint')}</p>
        </>
      ) : (
        !editable && <p className="space-empty-title">{t('pageTypes.iframe.noUrl')}</p>
      )}
    </div>
  );
}

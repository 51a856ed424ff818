import { memo, useMemo, useState } from 'react';
import { useReadOnly, type RenderElementProps } from 'slate-react';
import { EMBED_SANDBOX, embedSource, embedUrlSchema } from './block';
import type { EmbedElement } from '../../../schema/slate';
import { AlignButtons, ScaledBox, blockRootProps, editorT, stopKeys, useSetBlockFields, type BlockViews } from '../../../src/editor/blockView';

/** Videos are 16:9; maps, documents and boards get a taller frame. */
const VIDEO_PROVIDERS = new Set(['youtube', 'vimeo', 'rutube', 'vk', 'loom']);

/**
 * An embed: a link input while empty; then the page of an allowed host in a sandboxed frame
 * (sized and aligned like an image), or a plain link card for any other site.
 */
export const EmbedView = memo(function EmbedView({ attributes, children, element }: RenderElementProps) {
  const embed = element as EmbedElement;
  const readOnly = useReadOnly();
  return (
    <div {...attributes} {...blockRootProps(embed, 'block-void block-media')}>
      {embed.url ? <LoadedEmbed embed={embed} url={embed.url} readOnly={readOnly} /> : <EmbedLinkForm embed={embed} readOnly={readOnly} />}
      {children}
    </div>
  );
});

function EmbedLinkForm({ embed, readOnly }: { embed: EmbedElement; readOnly: boolean }) {
  const setFields = useSetBlockFields(embed);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  if (readOnly) {
    return (
      <div className="media-panel" contentEditable={false}>
        <div className="media-panel-title">{editorT('embed.empty')}</div>
      </div>
    );
  }
  const submit = () => {
    const url = value.trim();
    if (!embedUrlSchema.safeParse(url).success) {
      setInvalid(true);
      return;
    }
    setFields({ url });
  };
  return (
    <form
      className="media-panel embed-form"
      contentEditable={false}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="media-panel-title">{editorT('embed.empty')}</div>
      <div className="embed-form-row">
        <input
          className="embed-input"
          type="url"
          inputMode="url"
          value={value}
          placeholder={editorT('embed.placeholder')}
          aria-label={editorT('embed.inputLabel')}
          onChange={(event) => {
            setValue(event.target.value);
            setInvalid(false);
          }}
          onKeyDown={(event) => {
            stopKeys(event);
            if (event.key === 'Enter') {
              event.preventDefault();
              submit();
            }
          }}
          onPaste={(event) => event.stopPropagation()}
        />
        <button type="submit" className="media-button">
          {editorT('embed.submit')}
        </button>
      </div>
      {invalid ? (
        <div className="media-error" role="alert">
          {editorT('embed.invalid')}
        </div>
      ) : (
        <div className="media-panel-hint">{editorT('embed.hint')}</div>
      )}
    </form>
  );
}

function LoadedEmbed({ embed, url, readOnly }: { embed: EmbedElement; url: string; readOnly: boolean }) {
  const setFields = useSetBlockFields(embed);
  const source = useMemo(() => embedSource(url), [url]);
  const host = useMemo(() => {
    try {
      return new URL(url).hostname;
    } catch {
      return url;
    }
  }, [url]);
  return (
    <div className="media-body" contentEditable={false}>
      {readOnly ? null : (
        <div className="media-toolbar">
          {source ? <AlignButtons align={embed.align ?? 'center'} onAlign={(align) => setFields({ align })} /> : null}
          <button type="button" className="media-tool" onClick={() => setFields({ url: null })}>
            {editorT('embed.change')}
          </button>
        </div>
      )}
      {source ? (
        <ScaledBox scale={embed.scale ?? 1} align={embed.align ?? 'center'} readOnly={readOnly} onScale={(scale) => setFields({ scale })}>
          <div className={`embed-frame${VIDEO_PROVIDERS.has(source.provider) ? ' embed-frame-video' : ''}`}>
            <iframe
              src={source.src}
              title={editorT('embed.frameTitle', { host })}
              sandbox={EMBED_SANDBOX}
              referrerPolicy="no-referrer"
              loading="lazy"
              allow="fullscreen; picture-in-picture; encrypted-media"
              allowFullScreen
            />
          </div>
        </ScaledBox>
      ) : (
        <a className="embed-card" href={url} target="_blank" rel="noopener noreferrer nofollow">
          <span className="embed-card-host">{host}</span>
          <span className="embed-card-url">{url}</span>
          <span className="media-panel-hint">{editorT('embed.notEmbeddable')}</span>
        </a>
      )}
    </div>
  );
}

export const blockViews: BlockViews = { embedBlock: EmbedView };

import { memo, useMemo } from 'react';
import { useReadOnly, type RenderElementProps } from 'slate-react';
import { EMBED_SANDBOX, embedSource, embedUrlSchema } from './block';
import type { EmbedElement } from '../../../schema/slate';
import { AlignButtons, LinkPanel, ScaledBox, blockRootProps, editorT, useSetBlockFields, type BlockViews } from '../../../src/editor/blockView';

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
  return <LinkPanel strings="embed" readOnly={readOnly} accepts={(url) => embedUrlSchema.safeParse(url).success} onSubmit={(url) => setFields({ url })} />;
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

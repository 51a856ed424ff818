import type { BlockElementBase } from '../../../schema/slate';
import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import { isSafeHref } from '../../../schema/token';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import { blockAlignSchema, scaleSchema, type BlockAlign } from '../image/block';

/** An embedded page of an allowed host (void); url null while empty. */
export interface EmbedElement extends BlockElementBase, EmbedData {
  type: 'embedBlock';
}

/** An embed's address: http or https only (the server refuses anything else with 422). */
export const embedUrlSchema = z.string().min(1).max(2048).refine(isSafeHref, { message: 'only http and https links can be embedded' });

export const embedDataSchema = z.object({ url: embedUrlSchema.nullable(), scale: scaleSchema, align: blockAlignSchema }).strict();
export type EmbedData = z.infer<typeof embedDataSchema>;

export const EMBED_PROVIDERS = ['youtube', 'vimeo', 'rutube', 'vk', 'yandexMaps', 'googleMaps', 'googleDocs', 'figma', 'miro', 'codepen', 'loom'] as const;
export type EmbedProvider = (typeof EMBED_PROVIDERS)[number];

export interface EmbedSource {
  provider: EmbedProvider;
  /** What the iframe loads: the host's own embed address. */
  src: string;
}

/** The host without `www.` / `m.`, lower-cased. */
function bareHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^(www\.|m\.)/, '');
}

function segments(url: URL): string[] {
  return url.pathname.split('/').filter(Boolean);
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

function youtube(url: URL, host: string): string | null {
  let id: string | null = null;
  const parts = segments(url);
  if (host === 'youtu.be') id = parts[0] ?? null;
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (parts[0] === 'watch') id = url.searchParams.get('v');
    else if (['embed', 'shorts', 'live', 'v'].includes(parts[0] ?? '')) id = parts[1] ?? null;
  }
  if (!id || !YOUTUBE_ID.test(id)) return null;
  const start = Number.parseInt(url.searchParams.get('t') ?? url.searchParams.get('start') ?? '', 10);
  return `https://www.youtube-nocookie.com/embed/${id}${Number.isFinite(start) && start > 0 ? `?start=${start}` : ''}`;
}

function vimeo(url: URL, host: string): string | null {
  const parts = segments(url);
  if (host === 'player.vimeo.com' && parts[0] === 'video' && /^\d+$/.test(parts[1] ?? '')) return `https://player.vimeo.com/video/${parts[1]}`;
  if (host !== 'vimeo.com') return null;
  const id = [...parts].reverse().find((p) => /^\d+$/.test(p));
  return id ? `https://player.vimeo.com/video/${id}` : null;
}

function rutube(url: URL, host: string): string | null {
  if (host !== 'rutube.ru') return null;
  const parts = segments(url);
  const id = parts[0] === 'video' ? parts[1] : parts[0] === 'play' && parts[1] === 'embed' ? parts[2] : parts[0] === 'shorts' ? parts[1] : undefined;
  return id && /^[a-f0-9]{32}$/i.test(id) ? `https://rutube.ru/play/embed/${id}` : null;
}

function vk(url: URL, host: string): string | null {
  if (host !== 'vk.com' && host !== 'vkvideo.ru' && host !== 'vk.ru') return null;
  const parts = segments(url);
  if (parts[0] === 'video_ext.php') {
    const oid = url.searchParams.get('oid');
    const id = url.searchParams.get('id');
    if (!oid || !id || !/^-?\d+$/.test(oid) || !/^\d+$/.test(id)) return null;
    const hash = url.searchParams.get('hash');
    return `https://vk.com/video_ext.php?oid=${oid}&id=${id}${hash && /^[a-f0-9]+$/i.test(hash) ? `&hash=${hash}` : ''}`;
  }
  // vk.com/video-123_456, vkvideo.ru/video-123_456, or ?z=video-123_456 on a wall.
  const candidate = [parts[parts.length - 1] ?? '', url.searchParams.get('z') ?? ''].map((s) => /^video(-?\d+)_(\d+)/.exec(s)).find(Boolean);
  return candidate ? `https://vk.com/video_ext.php?oid=${candidate[1]}&id=${candidate[2]}` : null;
}

function yandexMaps(url: URL, host: string): string | null {
  if (!/^yandex\.(ru|com|by|kz|uz|com\.tr)$/.test(host)) return null;
  const parts = segments(url);
  if (parts[0] === 'map-widget') return `https://${host}${url.pathname}${url.search}`;
  // The widget takes the map's query (ll, z, pt, oid, text…); a short link (/maps/-/…) has none to give.
  if (parts[0] !== 'maps' || url.search === '') return null;
  return `https://${host}/map-widget/v1/${url.search}`;
}

function googleMaps(url: URL, host: string): string | null {
  const parts = segments(url);
  const isMaps = (host === 'google.com' && parts[0] === 'maps') || host === 'maps.google.com';
  if (!isMaps) return null;
  if (parts[1] === 'embed' && url.searchParams.get('pb')) return `https://www.google.com/maps/embed?pb=${encodeURIComponent(url.searchParams.get('pb') ?? '')}`;
  const q = url.searchParams.get('q') ?? url.searchParams.get('query');
  if (q) return `https://maps.google.com/maps?q=${encodeURIComponent(q)}&output=embed`;
  const place = parts[1] === 'place' ? parts[2] : undefined;
  if (place) return `https://maps.google.com/maps?q=${encodeURIComponent(decodeURIComponent(place).replace(/\+/g, ' '))}&output=embed`;
  const at = parts.find((p) => p.startsWith('@'));
  const match = at ? /^@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)(?:,(\d+(?:\.\d+)?)z)?/.exec(at) : null;
  if (match) return `https://maps.google.com/maps?ll=${match[1]},${match[2]}&z=${Math.round(Number(match[3] ?? 14))}&output=embed`;
  return null;
}

function googleDocs(url: URL, host: string): string | null {
  if (host !== 'docs.google.com') return null;
  const parts = segments(url);
  const kind = parts[0];
  if (kind !== 'document' && kind !== 'spreadsheets' && kind !== 'presentation') return null;
  if (parts[1] !== 'd' || !parts[2]) return null;
  if (parts[2] === 'e' && parts[3] && /^[A-Za-z0-9_-]+$/.test(parts[3])) {
    // A document published to the web.
    const tail = kind === 'presentation' ? 'embed' : 'pubhtml?widget=true&headers=false';
    return `https://docs.google.com/${kind}/d/e/${parts[3]}/${tail}`;
  }
  if (!/^[A-Za-z0-9_-]+$/.test(parts[2])) return null;
  return `https://docs.google.com/${kind}/d/${parts[2]}/${kind === 'presentation' ? 'embed' : 'preview'}`;
}

function figma(url: URL, host: string): string | null {
  if (host !== 'figma.com') return null;
  const parts = segments(url);
  if (parts[0] === 'embed') {
    const inner = url.searchParams.get('url');
    return inner && isSafeHref(inner) && figma(new URL(inner), bareHost(new URL(inner)))
      ? `https://www.figma.com/embed?embed_host=share&url=${encodeURIComponent(inner)}`
      : null;
  }
  if (!['file', 'design', 'proto', 'board', 'slides', 'deck'].includes(parts[0] ?? '') || !parts[1]) return null;
  return `https://www.figma.com/embed?embed_host=share&url=${encodeURIComponent(url.href)}`;
}

function miro(url: URL, host: string): string | null {
  if (host !== 'miro.com') return null;
  const parts = segments(url);
  if (parts[0] !== 'app' || (parts[1] !== 'board' && parts[1] !== 'live-embed') || !parts[2]) return null;
  if (!/^[A-Za-z0-9_=-]+$/.test(parts[2])) return null;
  return `https://miro.com/app/live-embed/${parts[2]}/`;
}

function codepen(url: URL, host: string): string | null {
  if (host !== 'codepen.io') return null;
  const parts = segments(url);
  if (parts.length < 3 || (parts[1] !== 'pen' && parts[1] !== 'embed' && parts[1] !== 'full')) return null;
  if (!/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9]+$/.test(parts[2])) return null;
  return `https://codepen.io/${parts[0]}/embed/${parts[2]}?default-tab=result`;
}

function loom(url: URL, host: string): string | null {
  if (host !== 'loom.com') return null;
  const parts = segments(url);
  if ((parts[0] !== 'share' && parts[0] !== 'embed') || !parts[1] || !/^[A-Za-z0-9]+$/.test(parts[1])) return null;
  return `https://www.loom.com/embed/${parts[1]}`;
}

const RULES: ReadonlyArray<[EmbedProvider, (url: URL, host: string) => string | null]> = [
  ['youtube', youtube],
  ['vimeo', vimeo],
  ['rutube', rutube],
  ['vk', vk],
  ['yandexMaps', yandexMaps],
  ['googleMaps', googleMaps],
  ['googleDocs', googleDocs],
  ['figma', figma],
  ['miro', miro],
  ['codepen', codepen],
  ['loom', loom],
];

/**
 * The embed address for a link to one of the allowed hosts (a watch or share link becomes the
 * host's player or embed address), or null: then the link is shown as a card, never in a frame.
 */
export function embedSource(href: string): EmbedSource | null {
  if (!isSafeHref(href)) return null;
  const url = new URL(href);
  if (url.username || url.password) return null;
  const host = bareHost(url);
  for (const [provider, rule] of RULES) {
    const src = rule(url, host);
    if (src) return { provider, src };
  }
  return null;
}

/** The sandbox every embed frame gets. */
export const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-presentation';

const DEFAULT_ALIGN: BlockAlign = 'center';

/** A copy; fields Slate left off the element (null is dropped; a retyped text block has none) read as the defaults. */
function copyEmbed(data: Partial<EmbedData>): EmbedData {
  return { url: data.url ?? null, scale: data.scale ?? 1, align: data.align ?? DEFAULT_ALIGN };
}

/** A page of another site shown in a frame (allowed hosts only); shortcut `/embed`. */
export const embedBlock: BlockDefinition<'embed', EmbedData, EmbedElement> = {
  wireType: 'embed',
  slateType: 'embedBlock',
  dataSchema: embedDataSchema,
  shortcuts: ['/embed'],
  menuGroup: 'media',
  searchText: (data) => data.url ?? '',
  isVoid: true,
  defaultData: () => ({ url: null, scale: 1, align: DEFAULT_ALIGN }),
  // Offered for a pasted link of an allowed host only (any other would show as a plain card).
  fromLink: (url) => (embedSource(url) ? { url, scale: 1, align: DEFAULT_ALIGN } : null),
  canonicalize: copyEmbed,
  toSlateFields: (data) => ({ children: [{ text: '' }], ...copyEmbed(data) }),
  toWireData: (element) => {
    if (element.type !== 'embedBlock') throw new Error(`${element.type} is not an embed element`);
    return copyEmbed(element);
  },
  markdown: { serialize: (data) => (data.url ? [`<${data.url}>`] : []) },
  html: {
    serialize: (data) => {
      if (!data.url) return '';
      const url = escapeHtml(data.url);
      const source = embedSource(data.url);
      const attrs = `data-embed-url="${url}" data-scale="${data.scale}" data-align="${data.align}"`;
      return source
        ? `<iframe src="${escapeHtml(source.src)}" ${attrs} sandbox="${EMBED_SANDBOX}" referrerpolicy="no-referrer" loading="lazy"></iframe>`
        : `<a href="${url}" ${attrs}>${url}</a>`;
    },
    parse: [
      {
        selector: 'iframe[src], a[data-embed-url]',
        read: (element) => {
          const url = element.getAttribute('data-embed-url') ?? element.getAttribute(element.tagName === 'A' ? 'href' : 'src');
          if (!url || !embedUrlSchema.safeParse(url).success) return null;
          // A pasted frame of a host we do not embed is not taken (it stays text, if anything).
          if (element.tagName === 'IFRAME' && !embedSource(url)) return null;
          const scale = scaleSchema.safeParse(Number(element.getAttribute('data-scale') ?? 1));
          const align = blockAlignSchema.safeParse(element.getAttribute('data-align') ?? DEFAULT_ALIGN);
          return { url, scale: scale.success ? scale.data : 1, align: align.success ? align.data : DEFAULT_ALIGN };
        },
      },
    ],
  },
};

import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import { isSafeHref } from '../../../schema/token';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import type { BlockElementBase } from '../../../schema/slate';
import { embedUrlSchema } from '../embed/block';

/**
 * A bookmark (issue 39 §2): a link shown as a card — the page's title, description, icon and
 * picture, read by the server from the page (POST link/preview, docs/api/blocks.md «Link
 * previews»: SSRF-guarded, cached) and kept in the block, so every reader, an export and an old
 * version show the same card without fetching anything. `preview` is null until it is read (a
 * writer's editor reads it when it shows the block), and stays null when it could not be: the
 * card then shows the address plainly.
 */
export interface BookmarkElement extends BlockElementBase, BookmarkData {
  type: 'bookmarkBlock';
}

/** How long a preview's texts and addresses may be (the server cuts what a page gives to these). */
export const PREVIEW_LIMITS = { title: 300, description: 1_000, siteName: 100, url: 2_048 } as const;

/** An address a card loads (icon, picture): http(s) only. */
const previewAddress = z.string().min(1).max(PREVIEW_LIMITS.url).refine(isSafeHref, { message: 'only http and https addresses' });

export const bookmarkPreviewSchema = z
  .object({
    title: z.string().max(PREVIEW_LIMITS.title).nullable(),
    description: z.string().max(PREVIEW_LIMITS.description).nullable(),
    image: previewAddress.nullable(),
    icon: previewAddress.nullable(),
    siteName: z.string().max(PREVIEW_LIMITS.siteName).nullable(),
  })
  .strict();
export type BookmarkPreview = z.infer<typeof bookmarkPreviewSchema>;

export const bookmarkDataSchema = z.object({ url: embedUrlSchema.nullable(), preview: bookmarkPreviewSchema.nullable() }).strict();
export type BookmarkData = z.infer<typeof bookmarkDataSchema>;

const EMPTY_PREVIEW: BookmarkPreview = { title: null, description: null, image: null, icon: null, siteName: null };

/** A preview with every field (absent ones null) and nothing else. One with every field null says the page was read and gave nothing (a PDF); null, that it was not read. */
function copyPreview(preview: Partial<BookmarkPreview> | null | undefined): BookmarkPreview | null {
  if (!preview) return null;
  const copy = { ...EMPTY_PREVIEW };
  for (const key of Object.keys(EMPTY_PREVIEW) as (keyof BookmarkPreview)[]) copy[key] = preview[key] ?? null;
  return copy;
}

function copyBookmark(data: Partial<BookmarkData>): BookmarkData {
  return { url: data.url ?? null, preview: data.url ? copyPreview(data.preview) : null };
}

/** The host a card names when the page gave no site name (without `www.`). */
export function bookmarkHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

const attribute = (name: string, value: string | null) => (value ? ` ${name}="${escapeHtml(value)}"` : '');

export const bookmarkBlock: BlockDefinition<'bookmark', BookmarkData, BookmarkElement> = {
  wireType: 'bookmark',
  slateType: 'bookmarkBlock',
  dataSchema: bookmarkDataSchema,
  shortcuts: ['/bookmark'],
  menuGroup: 'media',
  // Found by its address and its card's title, description and site.
  searchText: (data) => [data.preview?.title, data.preview?.description, data.preview?.siteName, data.url].filter((text): text is string => !!text).join('\n'),
  isVoid: true,
  defaultData: () => ({ url: null, preview: null }),
  fromLink: (url) => ({ url, preview: null }),
  canonicalize: copyBookmark,
  toSlateFields: (data) => ({ children: [{ text: '' }], ...copyBookmark(data) }),
  toWireData: (element) => {
    if (element.type !== 'bookmarkBlock') throw new Error(`${element.type} is not a bookmark element`);
    return copyBookmark(element);
  },
  // A link with the page's title (as Notion exports one), its description under it.
  markdown: {
    serialize: (data, md) => {
      if (!data.url) return [];
      const title = data.preview?.title;
      const link = title ? `[${md.inlineMidLine([{ text: title }])}](${md.address(data.url)})` : `<${data.url}>`;
      const description = data.preview?.description;
      return description ? [link, '', md.inline([{ text: description }])] : [link];
    },
  },
  // A figure holding the link and the description; the rest of the card in data-* (read back by paste and import).
  html: {
    serialize: (data) => {
      if (!data.url) return '';
      const preview = data.preview ?? EMPTY_PREVIEW;
      const url = escapeHtml(data.url);
      const attrs = `${attribute('data-image', preview.image)}${attribute('data-icon', preview.icon)}${attribute('data-site-name', preview.siteName)}`;
      const caption = preview.description ? `<figcaption>${escapeHtml(preview.description)}</figcaption>` : '';
      return `<figure data-bookmark${attrs}><a href="${url}">${escapeHtml(preview.title ?? data.url)}</a>${caption}</figure>`;
    },
    parse: [
      {
        selector: 'figure[data-bookmark]',
        read: (element) => {
          const url = element.querySelector('a[href]')?.getAttribute('href');
          if (!url || !embedUrlSchema.safeParse(url).success) return null;
          const text = (selector: string, max: number) => element.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim().slice(0, max) || null;
          const title = text('a', PREVIEW_LIMITS.title);
          const address = (name: string) => {
            const value = element.getAttribute(name);
            return value && previewAddress.safeParse(value).success ? value : null;
          };
          const preview = copyPreview({
            title: title === url ? null : title,
            description: text('figcaption', PREVIEW_LIMITS.description),
            image: address('data-image'),
            icon: address('data-icon'),
            siteName: element.getAttribute('data-site-name')?.slice(0, PREVIEW_LIMITS.siteName) || null,
          });
          // An HTML card with nothing but its address was not read (or read empty: the same to a reader).
          return { url, preview: preview && Object.values(preview).some((value) => value !== null) ? preview : null };
        },
      },
    ],
  },
};

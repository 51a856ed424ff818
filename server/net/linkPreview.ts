import { parse } from 'parse5';
import { PREVIEW_LIMITS } from '../../plugins/blocks/bookmark/block';
import { safeFetch, type SafeFetchOptions } from './safeFetch';

/*
 * A link's preview (the bookmark block, issue 39 §2): the page's title, description, icon and
 * picture, read from its <head> — Open Graph (`og:*`) first, then Twitter's cards, then the
 * page's own <title>, `description` and `<link rel=icon>` — with addresses made absolute and
 * kept only when they are http(s). Fetched by safeFetch (SSRF-guarded, limited). Text is trimmed
 * and cut to lengths a card shows; nothing from the page is trusted as HTML.
 */

export interface LinkPreview {
  url: string;
  title: string | null;
  description: string | null;
  image: string | null;
  icon: string | null;
  siteName: string | null;
}

interface Node5 {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node5[];
  value?: string;
}

const attr = (node: Node5, name: string) => node.attrs?.find((a) => a.name === name)?.value;

/** The text inside a node (its text children, joined). */
function textOf(node: Node5): string {
  if (node.nodeName === '#text') return node.value ?? '';
  return (node.childNodes ?? []).map(textOf).join('');
}

/** Every element under `root`, in document order (the head is small; the body is not read past its start). */
function elements(root: Node5, out: Node5[] = []): Node5[] {
  for (const child of root.childNodes ?? []) {
    if (child.tagName) {
      out.push(child);
      if (child.tagName !== 'body') elements(child, out);
    }
  }
  return out;
}

const clean = (text: string | undefined, max: number): string | null => {
  const value = (text ?? '').replace(/\s+/g, ' ').trim();
  return value ? value.slice(0, max) : null;
};

/** An address on the page made absolute, if it is http(s) (a `javascript:` or `data:` picture is dropped). */
function absolute(href: string | undefined, base: URL): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.href.length <= PREVIEW_LIMITS.url ? url.href : null;
  } catch {
    return null;
  }
}

/** The preview of a page from its HTML (at `pageUrl`, after redirects). */
export function readPreview(html: string, pageUrl: URL): LinkPreview {
  const all = elements(parse(html) as unknown as Node5);
  const meta = new Map<string, string>();
  let title: string | undefined;
  let icon: string | undefined;
  let base = pageUrl;
  for (const element of all) {
    if (element.tagName === 'meta') {
      const key = (attr(element, 'property') ?? attr(element, 'name') ?? '').toLowerCase();
      const content = attr(element, 'content');
      if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
    } else if (element.tagName === 'title' && title === undefined) {
      title = textOf(element);
    } else if (element.tagName === 'link') {
      const rel = (attr(element, 'rel') ?? '').toLowerCase().split(/\s+/);
      // The first icon named; an apple-touch-icon (bigger) only when there is no plain one.
      if ((rel.includes('icon') && (icon === undefined || !/apple/.test(icon))) || (rel.includes('apple-touch-icon') && icon === undefined))
        icon = attr(element, 'href');
    } else if (element.tagName === 'base') {
      const href = absolute(attr(element, 'href'), pageUrl);
      if (href) base = new URL(href);
    }
  }
  const pick = (...keys: string[]) => keys.map((key) => meta.get(key)).find((value) => value !== undefined && value.trim() !== '');
  return {
    url: pageUrl.href,
    title: clean(pick('og:title', 'twitter:title') ?? title, PREVIEW_LIMITS.title),
    description: clean(pick('og:description', 'twitter:description', 'description'), PREVIEW_LIMITS.description),
    image: absolute(pick('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'), base),
    icon: absolute(icon ?? '/favicon.ico', base),
    siteName: clean(pick('og:site_name', 'application-name'), PREVIEW_LIMITS.siteName),
  };
}

/** Fetches `target` (safely) and reads its preview; a page that is not HTML gives only its address. */
export async function fetchLinkPreview(target: string, options: SafeFetchOptions = {}): Promise<LinkPreview> {
  const page = await safeFetch(target, { maxBytes: 512_000, ...options });
  if (page.status < 200 || page.status >= 300 || !/html/i.test(page.contentType)) {
    return { url: page.url.href, title: null, description: null, image: null, icon: null, siteName: null };
  }
  const charset = /charset=([\w-]+)/i.exec(page.contentType)?.[1]?.toLowerCase() ?? 'utf-8';
  let html: string;
  try {
    html = new TextDecoder(charset).decode(page.body);
  } catch {
    html = page.body.toString('utf8');
  }
  return readPreview(html, page.url);
}

import DOMPurify, { type WindowLike } from 'dompurify';

/** A DOM to read HTML with where there is no browser's (the server's HTML import gives jsdom's window). */
export type HtmlWindow = WindowLike & { DOMParser: typeof DOMParser };

/** DOMPurify bound to a given window, made once per window. */
const purifiers = new WeakMap<HtmlWindow, typeof DOMPurify>();

/** The tags a paste keeps: structure, inline formatting, links, and what block types read. */
const ALLOWED_TAGS = [
  'p',
  'div',
  'span',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'ins',
  's',
  'del',
  'strike',
  'kbd',
  'samp',
  'sub',
  'sup',
  'mark',
  'small',
  'font',
  'a',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'colgroup',
  'col',
  'hr',
  'img',
  'input',
  'label',
  'aside',
  'figure',
  'figcaption',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'details',
  'summary',
  'center',
  'dl',
  'dt',
  'dd',
  'address',
  'iframe',
  'time',
];

/**
 * Attributes that block types read (list start, checkbox state, code language classes, data-*
 * of blocks copied from this app, inline styles Google Docs and Word mark text with). Event
 * handlers and anything else are dropped; data-* attributes are kept by DOMPurify's default.
 */
const ALLOWED_ATTR = [
  'datetime',
  'href',
  'src',
  'alt',
  'title',
  'start',
  'type',
  'checked',
  'class',
  'style',
  'id',
  'width',
  'download',
  'role',
  'aria-checked',
  'aria-level',
  'sandbox',
  'referrerpolicy',
  'loading',
];

/**
 * Pasted HTML made safe to read: scripts, styles, comments, handlers and non-http(s) links
 * gone (the content of unknown tags such as Word's <o:p> is kept). The result is only parsed,
 * never shown. Null where there is no DOM to do it with: the browser's, or `window` when given.
 */
export function sanitizeHtml(html: string, window?: HtmlWindow): string | null {
  let purifier = DOMPurify;
  if (window) {
    purifier = purifiers.get(window) ?? DOMPurify(window);
    purifiers.set(window, purifier);
  } else if (typeof DOMParser === 'undefined') return null;
  // Without a DOM (a server or a bare test) nothing is read: DOMPurify would pass the HTML through.
  if (!purifier.isSupported) return null;
  return purifier.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    // Only http(s) among schemes; values without a scheme ("3", "checkbox", relative paths) pass.
    ALLOWED_URI_REGEXP: /^(?:https?:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    KEEP_CONTENT: true,
    WHOLE_DOCUMENT: false,
  });
}

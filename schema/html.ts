import { canonicalTokens, dateMentionSchema, isPageLink, isSafeHref, PAGE_LINK_TEXT, pageHref, type Token, type TokenMarks } from './token';

/** Text safe inside HTML elements and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A token list as inline HTML (marks as <strong>, <em>, <u>, <s>, <code>, links as <a>). */
export function tokensToHtml(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      let html = escapeHtml(token.text).replace(/\n/g, '<br>');
      if (token.code) html = `<code>${html}</code>`;
      if (token.bold) html = `<strong>${html}</strong>`;
      if (token.italic) html = `<em>${html}</em>`;
      if (token.underline) html = `<u>${html}</u>`;
      if (token.struckOut) html = `<s>${html}</s>`;
      if (isPageLink(token.link)) html = `<a href="${escapeHtml(token.link.href)}" data-page-id="${escapeHtml(token.link.pageId)}">${html}</a>`;
      else if (token.link && isSafeHref(token.link.href)) html = `<a href="${escapeHtml(token.link.href)}">${html}</a>`;
      if (token.date) {
        const remind = token.date.remindAt ? ` data-remind-at="${escapeHtml(token.date.remindAt)}"` : '';
        html = `<time datetime="${escapeHtml(token.date.start)}"${remind}>${html}</time>`;
      }
      return html;
    })
    .join('');
}

const MARK_TAGS: Record<string, keyof TokenMarks> = {
  STRONG: 'bold',
  B: 'bold',
  EM: 'italic',
  I: 'italic',
  U: 'underline',
  INS: 'underline',
  S: 'struckOut',
  DEL: 'struckOut',
  STRIKE: 'struckOut',
  CODE: 'code',
  KBD: 'code',
  SAMP: 'code',
};

/** Marks an element's inline style sets (Google Docs and Word mark text with styles, not tags). */
function styleMarks(element: Element): Partial<TokenMarks> {
  const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined;
  if (!style) return {};
  const marks: Partial<TokenMarks> = {};
  const weight = style.fontWeight;
  if (weight === 'bold' || weight === 'bolder' || Number(weight) >= 600) marks.bold = true;
  // Google Docs wraps a whole paste in <b style="font-weight:normal">: that is not bold.
  if (weight === 'normal' || weight === '400') marks.bold = false;
  if (style.fontStyle === 'italic') marks.italic = true;
  const decoration = `${style.textDecoration} ${style.textDecorationLine}`;
  if (decoration.includes('underline')) marks.underline = true;
  if (decoration.includes('line-through')) marks.struckOut = true;
  return marks;
}

/**
 * The inline content of a pasted element as canonical tokens: text with the marks of the tags
 * and styles around it, http/https links kept (others dropped, their text kept), <br> as a line
 * break. Block-level children are read as inline text too; callers split blocks first.
 */
export function htmlToTokens(root: Element): Token[] {
  const out: Token[] = [];
  const walk = (node: Node, marks: TokenMarks) => {
    if (node.nodeType === 3) {
      const text = (node.textContent ?? '').replace(/[\t\n\r ]+/g, ' ');
      if (text !== '') out.push({ ...marks, text });
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    if (element.tagName === 'BR') {
      out.push({ ...marks, text: '\n' });
      return;
    }
    const next: TokenMarks = { ...marks };
    const tagMark = MARK_TAGS[element.tagName];
    if (tagMark) (next as Record<string, unknown>)[tagMark] = true;
    for (const [mark, on] of Object.entries(styleMarks(element))) {
      if (on) (next as Record<string, unknown>)[mark] = true;
      else delete (next as Record<string, unknown>)[mark];
    }
    if (element.tagName === 'A') {
      const href = element.getAttribute('href');
      const pageId = element.getAttribute('data-page-id');
      if (pageId && href === pageHref(pageId) && isPageLink({ href, pageId })) {
        // A page link copied here: its text was the page's title then; the link shows the current one.
        out.push({ ...next, link: { href, pageId }, text: PAGE_LINK_TEXT });
        return;
      }
      if (href && isSafeHref(href)) next.link = { href };
    }
    if (element.tagName === 'TIME') {
      // A date mention copied here (the reminder too: whoever pastes it is the one reminded).
      const date = dateMentionSchema.safeParse({
        start: element.getAttribute('datetime') ?? '',
        ...(element.getAttribute('data-remind-at') ? { remindAt: element.getAttribute('data-remind-at') } : {}),
      });
      if (date.success) next.date = date.data;
    }
    for (const child of Array.from(element.childNodes)) walk(child, next);
  };
  for (const child of Array.from(root.childNodes)) walk(child, {});
  // Whitespace at the edges of a block is layout, not text.
  if (out.length > 0) {
    out[0] = { ...out[0], text: out[0].text.replace(/^ +/, '') };
    const last = out.length - 1;
    out[last] = { ...out[last], text: out[last].text.replace(/ +$/, '') };
  }
  return canonicalTokens(out);
}

import { z } from 'zod';
import { LIMITS } from './constants';

/** Only http and https links are accepted (spec: validation rules). */
export function isSafeHref(href: string): boolean {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The app's address of a page, which a page link's href is: `/{pageId}`. */
export function pageHref(pageId: string): string {
  return `/${pageId}`;
}

/** The text a page link's token holds: the link shows the page's current title instead (docs/plugins.md). */
export const PAGE_LINK_TEXT = '↗';

/**
 * A link: an http(s) address, or a page link (issue 15): `pageId` names a page of the app and
 * `href` is that page's address, `/{pageId}` (old clients still see a working link).
 */
export const linkSchema = z
  .object({ href: z.string().max(2048), pageId: z.string().uuid().optional() })
  .strict()
  .refine((link) => (link.pageId !== undefined ? link.href === pageHref(link.pageId) : isSafeHref(link.href)), {
    message: 'only http and https links, or a page link to /{pageId}, are allowed',
    path: ['href'],
  });
export type TokenLink = z.infer<typeof linkSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Is this link a page link (a valid one: its href is the page's address)? */
export function isPageLink(link: { href: string; pageId?: string } | undefined): link is { href: string; pageId: string } {
  return link?.pageId !== undefined && UUID.test(link.pageId) && link.href === pageHref(link.pageId);
}

/** A date mention's day, or day and time: the writer's wall clock (`2026-12-11`, `2026-12-11T15:00`). */
export const DATE_MENTION_START = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

/** Whether `start` names a real day (and time): no 31 February, no 24:00. */
export function isDateMentionStart(start: string): boolean {
  const match = DATE_MENTION_START.exec(start);
  if (!match) return false;
  const [, year, month, day, hour = '0', minute = '0'] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    Number(hour) < 24 &&
    Number(minute) < 60
  );
}

/**
 * A date mention (issue 39 §2: `@завтра`, `@пятница 15:00`): its token's text is the date as it
 * reads (`11 декабря 2026, 15:00`, written when it was made), `start` the day and time on the
 * writer's clock, and `remindAt`, when it is a reminder, the instant the server notifies the
 * person who set it (docs/api/blocks.md «Date mentions and reminders»).
 */
export const dateMentionSchema = z
  .object({
    start: z.string().refine(isDateMentionStart, { message: 'a day as YYYY-MM-DD, or with a time as YYYY-MM-DDTHH:mm' }),
    remindAt: z.string().datetime().optional(),
  })
  .strict();
export type DateMention = z.infer<typeof dateMentionSchema>;

export const tableAddressSchema = z.object({ x: z.number().int().min(0), y: z.number().int().min(0) }).strict();

/** A run of text with the same modifiers. On the wire a token never has empty text. */
export const tokenSchema = z
  .object({
    text: z.string().min(1).max(LIMITS.blockTextLength),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    underline: z.boolean().optional(),
    struckOut: z.boolean().optional(),
    code: z.boolean().optional(),
    link: linkSchema.optional(),
    date: dateMentionSchema.optional(),
    tableAddress: tableAddressSchema.optional(),
    comments: z.array(z.string().max(64)).max(100).optional(),
  })
  .strict();

export type Token = z.infer<typeof tokenSchema>;
/** A token's modifiers: everything but the text. */
export type TokenMarks = Omit<Token, 'text'>;

export const tokensSchema = z
  .array(tokenSchema)
  .max(LIMITS.tokensPerBlock)
  .refine((tokens) => tokens.reduce((n, t) => n + t.text.length, 0) <= LIMITS.blockTextLength, {
    message: `a block holds at most ${LIMITS.blockTextLength} characters`,
  });

function marksOf(token: Token): string {
  const { text: _text, ...marks } = token;
  return JSON.stringify(Object.entries(marks).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The canonical form of a token list, the same one Slate's normalizer keeps:
 * no empty tokens, and neighbours with equal modifiers joined.
 */
export function canonicalTokens(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    if (token.text === '') continue;
    const last = out[out.length - 1];
    if (last && marksOf(last) === marksOf(token)) {
      out[out.length - 1] = { ...last, text: last.text + token.text };
    } else {
      out.push({ ...token });
    }
  }
  return out;
}

/** The plain text of a token list. */
export function tokensText(tokens: readonly Token[]): string {
  return tokens.map((t) => t.text).join('');
}

import { z } from 'zod';
import { PREVIEW_LIMITS, type BookmarkPreview } from '../plugins/blocks/bookmark/block';

/** `POST link/preview`'s body: the address to read (any text up to the limit; the server says why it will not fetch one). */
export const linkPreviewBodySchema = z
  .object({
    url: z
      .string()
      .trim()
      .min(1)
      .max(PREVIEW_LIMITS.url)
      .refine((text) => URL.canParse(text), { message: 'not an address' }),
    /** Read the page again rather than give the day's kept card («Обновить превью»). */
    fresh: z.boolean().optional(),
  })
  .strict();

/** A link's preview as the server read it (docs/api/blocks.md «Link previews»). */
export interface WireLinkPreview extends BookmarkPreview {
  /** The address asked for. */
  url: string;
  /** The page's address after redirects. */
  finalUrl: string;
  /** When the server read the page (the same answer is given for a day). */
  fetchedAt: string;
}

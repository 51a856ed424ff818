import { z } from 'zod';

/** A MIME type without parameters, as we store and send it (no way to smuggle a header). */
export const MIME_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/;

export const mimeTypeSchema = z.string().trim().toLowerCase().regex(MIME_TYPE_PATTERN, { message: 'not a MIME type (type/subtype, no parameters)' });

/** What a file's type becomes when it is not one (an unknown type, or none). */
export const UNKNOWN_MIME_TYPE = 'application/octet-stream';

/**
 * A media type as HTTP writes it (RFC 9110 §8.3.1): `type "/" subtype *( OWS ";" OWS parameter )`,
 * a parameter `token "=" ( token / quoted-string )`; OWS is spaces and tabs only (never a line
 * break). Its type and subtype must also be RFC 6838's restricted names (MIME_TYPE_PATTERN).
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
const MEDIA_TYPE = new RegExp(`^[ \\t]*(${TOKEN}/${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED_STRING}))*)[ \\t]*$`);

/**
 * The type to store and send for a file whose type came from elsewhere (an import's `mimeType`,
 * a stored row written before types were checked): the type and subtype of a well-formed media
 * type, lower-cased, its parameters dropped (`Text/Plain; charset=utf-8` → `text/plain`); anything
 * else — a line break, a space inside, no subtype, not text at all — is `application/octet-stream`.
 * What it answers always matches MIME_TYPE_PATTERN: it can go into a header as it is.
 */
export function storableMimeType(value: unknown): string {
  if (typeof value !== 'string' || value.length > 1000) return UNKNOWN_MIME_TYPE;
  const match = MEDIA_TYPE.exec(value);
  const type = match?.[1].toLowerCase();
  return type !== undefined && MIME_TYPE_PATTERN.test(type) ? type : UNKNOWN_MIME_TYPE;
}

/** A file name as shown and offered for download: no path, no control characters. */
export const fileNameSchema = z
  .string()
  .max(1000)
  .transform(cleanFileName)
  .pipe(z.string().min(1, { message: 'the file needs a name' }).max(255));

// eslint-disable-next-line no-control-regex -- control characters are what it takes out
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The base name with control characters and path separators taken out. */
export function cleanFileName(name: string): string {
  const base = name.replace(CONTROL_CHARACTERS, '').split(/[/\\]/).pop() ?? '';
  return base.trim().slice(0, 255);
}

/** Images an avatar (a public upload) may be: raster only, never SVG. */
export const AVATAR_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/**
 * Types shown inline on the app's origin: pictures, sound, video and plain text. Anything else
 * (HTML, SVG, XML, PDF, scripts, unknown) is sent as an attachment.
 */
export const INLINE_MIME_TYPES: readonly string[] = [
  ...AVATAR_MIME_TYPES,
  'image/avif',
  'image/bmp',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/mp4',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'text/plain',
];

/** `POST /api/file/upload_url`: describe the file to upload; a page file or a public image (avatar). */
export const uploadUrlBodySchema = z
  .object({
    pageId: z.string().min(1).max(128).optional(),
    name: fileNameSchema,
    mimeType: mimeTypeSchema,
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    public: z.boolean().optional(),
  })
  .strict()
  .refine((body) => !(body.public && body.pageId !== undefined), { message: 'a file belongs to a page or is public, not both', path: ['public'] })
  .refine((body) => !body.public || (AVATAR_MIME_TYPES as readonly string[]).includes(body.mimeType), {
    message: `a public upload is an image: ${AVATAR_MIME_TYPES.join(', ')}`,
    path: ['mimeType'],
  });

export const uploadUrlAnswerSchema = z.object({
  id: z.string(),
  /** Where to POST the multipart form (relative to the API origin); carries the one-time token. */
  uploadUrl: z.string(),
  /** Form fields to send before the file part, as they are. */
  fields: z.record(z.string(), z.string()),
  /** The form field that carries the file. */
  fileField: z.string(),
  expiresAt: z.string(),
});
export type UploadUrlAnswer = z.infer<typeof uploadUrlAnswerSchema>;

/** A file on the wire. `url` is where its bytes are read (a protected link for page files). */
export const wireFileSchema = z.object({
  id: z.string(),
  contentType: z.literal('File'),
  name: z.string(),
  mimeType: z.string(),
  size: z.number(),
  pageId: z.string().nullable(),
  isPublic: z.boolean(),
  url: z.string(),
  createdAt: z.string(),
});
export type WireFile = z.infer<typeof wireFileSchema>;

/** The field names of the one-step page upload (`POST /api/file/page`, multipart). */
export const PAGE_FILE_FIELDS = { pageId: 'pageId', id: 'id', file: 'file' } as const;

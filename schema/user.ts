import { z } from 'zod';
import { LIMITS, LOGIN_CODE_LENGTH } from './constants';

/** The spec's e-mail check: something, an at sign, a domain, a dot and a suffix, no whitespace. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a string is an e-mail address by the spec's rule: something, @, a domain, a dot, a suffix, no whitespace. */
export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/** An e-mail address as typed (trimmed): where the way a person writes it is kept (signing in). */
export const typedEmailSchema = z.string().trim().max(LIMITS.emailLength).regex(EMAIL_PATTERN, { message: 'not an e-mail address' });
/** An e-mail address as every lookup matches it: lower case. */
export const emailSchema = typedEmailSchema.transform((e) => e.toLowerCase());

export const wireUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  anonymous: z.boolean(),
  telegramId: z.string().nullable(),
  createdAt: z.string(),
});
export type WireUser = z.infer<typeof wireUserSchema>;

export const sendCodeBodySchema = z.object({ email: emailSchema });
export const loginBodySchema = z.object({
  /** As typed: kept as the person writes it (shown), matched in lower case. */
  email: typedEmailSchema,
  pin: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${LOGIN_CODE_LENGTH}}$`), { message: `the code has ${LOGIN_CODE_LENGTH} digits` }),
});

/** What /api/user/list and others show for a user the caller may not see, or who does not exist. */
export function anonymousUser(id: string): WireUser {
  return { id, email: '', name: '', avatar_url: null, anonymous: true, telegramId: null, createdAt: '' };
}

/** `/api/auth/accesstoken/get`: same fields as login. */
export const accessTokenBodySchema = loginBodySchema;
export const accessTokenAnswerSchema = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), user: wireUserSchema });
export type AccessTokenAnswer = z.infer<typeof accessTokenAnswerSchema>;

/** `/api/auth/register`: the e-mail is checked in the handler, which answers 400 (not 422) for a bad one. */
export const registerBodySchema = z.object({ email: z.string().max(1000) });

export const oauthStartBodySchema = z.object({ service: z.string().trim().min(1).max(100) });
export const oauthCodeBodySchema = z.object({ state: z.string().min(1).max(256), code: z.string().min(1).max(4096) });

/** `/api/user/list`: ids to look up (the client batches them in a 100 ms window). */
export const userListBodySchema = z.object({ users_id: z.array(z.string().min(1).max(128)).max(500) }).strict();

export const userNameSchema = z.string().trim().min(1).max(200);

/** `POST /api/user`: change your own name or avatar; avatar_url null removes the avatar. */
export const updateUserBodySchema = z
  .object({
    id: z.string().min(1).max(128),
    name: userNameSchema.optional(),
    avatar_url: z.string().trim().min(1).max(2048).nullable().optional(),
  })
  .strict();

const panelWidth = z.number().int().min(160).max(2000);
const sectionFlags = z.object({ favorite: z.boolean(), all: z.boolean(), shared: z.boolean(), private: z.boolean() }).strict();

/**
 * The user settings the server keeps, each with its value schema and default (product spec:
 * default UI settings). Keys not listed here are refused.
 */
export const USER_SETTINGS = {
  theme: { schema: z.enum(['auto', 'light', 'dark']), default: 'auto' },
  inboxPinned: { schema: z.boolean(), default: false },
  inboxWidth: { schema: panelWidth, default: 400 },
  inboxFilter: { schema: z.enum(['all', 'read', 'unread']), default: 'all' },
  treeOpen: { schema: z.boolean(), default: true },
  treeWidth: { schema: panelWidth, default: 300 },
  treeSections: { schema: sectionFlags, default: { favorite: true, all: true, shared: true, private: true } },
  commentsWidth: { schema: panelWidth, default: 400 },
  recentColors: { schema: z.array(z.string().regex(/^#[0-9a-fA-F]{6}$/)).max(20), default: [] as string[] },
  messengerBanner: { schema: z.boolean(), default: true },
  /**
   * The workspace the app was last in, restored on the next visit on any device; null: the
   * first (personal) one. The server accepts only a workspace the user is a member of, and reads
   * back null once they no longer are.
   */
  activeWorkspace: { schema: z.string().min(1).max(128).nullable(), default: null as string | null },
  /** The start-workspace wizard was offered on the first visit (it is offered once). */
  wizardOffered: { schema: z.boolean(), default: false },
} as const;
export type UserSettingKey = keyof typeof USER_SETTINGS;
export type UserSettings = { [K in UserSettingKey]: z.infer<(typeof USER_SETTINGS)[K]['schema']> };

export function isUserSettingKey(key: string): key is UserSettingKey {
  return Object.hasOwn(USER_SETTINGS, key);
}

/** `POST /api/user/settings`: one key and its value. */
export const userSettingBodySchema = z.object({ key: z.string().min(1).max(100), value: z.unknown() }).strict();

/** `POST /api/email/hello`: the feedback form. */
export const feedbackBodySchema = z
  .object({
    username: z.string().trim().min(1).max(200),
    text: z.string().trim().min(1).max(10_000),
    email: emailSchema,
  })
  .strict();

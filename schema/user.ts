import { z } from 'zod';
import { LIMITS } from './constants';

/** The spec's e-mail check: something, an at sign, a domain, a dot and a suffix, no whitespace. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = z
  .string()
  .trim()
  .max(LIMITS.emailLength)
  .regex(EMAIL_PATTERN, { message: 'not an e-mail address' })
  .transform((e) => e.toLowerCase());

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
  email: emailSchema,
  pin: z.string().trim().regex(/^\d{6}$/, { message: 'the code has 6 digits' }),
});

import crypto from 'node:crypto';
import { LOGIN_CODE_LENGTH } from '../../schema/constants';

/** A secret for a cookie or a link: 32 random bytes, url-safe. */
export function newSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** How secrets are stored: their sha256, so a database leak does not leak sessions. */
export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

/** A six-digit sign-in code, uniformly drawn. */
export function newLoginCode(): string {
  return crypto
    .randomInt(0, 10 ** LOGIN_CODE_LENGTH)
    .toString()
    .padStart(LOGIN_CODE_LENGTH, '0');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Tokens are 32 bytes, base64url: 43 characters. Anything else in a link is refused before a lookup. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** SHA-256 of a token, hex: what the database keeps (a 256-bit random value needs no slow hash). */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new random token, for a confirmation request: it exists only in the mail or post that carries it. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/**
 * A subscriber's unsubscribe token. Every notice carries it, so it cannot be a random value thrown away after one
 * mail: it is the HMAC of the subscriber's id under the install's key (kept in `settings`, the same on every
 * instance), computed again for each mail and never stored. Row ids are never reused, so a removed subscription's
 * token never comes back.
 */
export function unsubscribeToken(key: Buffer, subscriberId: number): string {
  return createHmac('sha256', key).update(`vigil-unsubscribe:${subscriberId}`).digest('base64url');
}

/** A fresh key for the install (32 random bytes, base64url), stored once by the first instance that needs it. */
export const newTokenKey = (): string => randomBytes(32).toString('base64url');

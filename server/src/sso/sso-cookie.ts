import { createHmac, timingSafeEqual } from 'node:crypto';

/** A sign-in in progress, from the redirect to the provider to its callback. */
export interface PendingSignIn {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export const SSO_COOKIE = 'vigil_sso';
/** Only the single sign-on routes receive it. */
export const SSO_COOKIE_PATH = '/api/auth/sso/';
/** Time to sign in at the provider. */
export const SSO_COOKIE_SECONDS = 600;

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/**
 * The cookie's value: the pending sign-in, signed with the install's key (every instance has the same one), so the
 * callback may reach any instance and a visitor cannot forge or alter it. Being httpOnly and SameSite=Lax, it also
 * binds the callback to the browser that started the sign-in (no login CSRF with someone else's code).
 */
export function sealPendingSignIn(key: Buffer, pending: PendingSignIn): string {
  const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The pending sign-in of a cookie value, or null when it is missing, forged, altered or expired. */
export function openPendingSignIn(key: Buffer, value: string | undefined, now = Date.now()): PendingSignIn | null {
  if (!value) return null;
  const [payload, signature, extra] = value.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const pending = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PendingSignIn;
    return typeof pending.expiresAt === 'number' && pending.expiresAt * 1000 > now ? pending : null;
  } catch {
    return null;
  }
}

/** One cookie's value from a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

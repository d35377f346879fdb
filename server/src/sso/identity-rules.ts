import { ROLES, USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN, type Role } from '@vigil/proto';
import type { OidcProviderConfig } from '../config/sso-config';

/** The claims Vigil reads from a provider's ID token (and userinfo): `sub` always, the rest when present. */
export type ProviderClaims = Record<string, unknown> & { sub: string };

/** The verified email of the claims, lowercase; null when absent or not marked verified (`email_verified`). */
export function verifiedEmail(claims: ProviderClaims): string | null {
  const email = claimedEmail(claims);
  // Some providers send the flag as text.
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return email && verified ? email : null;
}

export function claimedEmail(claims: ProviderClaims): string | null {
  return typeof claims.email === 'string' && /^[^\s@]+@[^\s@]+$/.test(claims.email.trim()) ? claims.email.trim().toLowerCase() : null;
}

/** Whether the provider's domain rule lets these claims in: any email without a list, else a verified one on the list. */
export function domainAllowed(provider: OidcProviderConfig, claims: ProviderClaims): boolean {
  if (provider.allowedDomains.length === 0) return true;
  const email = verifiedEmail(claims);
  return email !== null && provider.allowedDomains.includes(email.slice(email.lastIndexOf('@') + 1));
}

/** A claim by name or dotted path (`realm_access.roles`), as a list of strings. */
function claimValues(claims: ProviderClaims, path: string): string[] {
  let value: unknown = claims[path];
  if (value === undefined && path.includes('.')) {
    value = path
      .split('.')
      .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), claims);
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The role the provider's claim maps to: admin when a value is among the admin values, viewer among the viewer values
 * (when Vigil has that role), else user. Null when the provider maps no roles (the account's role is Vigil's to keep).
 */
export function mappedRole(provider: OidcProviderConfig, claims: ProviderClaims): Role | null {
  if (!provider.roleClaim) return null;
  const values = claimValues(claims, provider.roleClaim);
  if (values.some((value) => provider.adminValues.includes(value))) return 'admin';
  const viewer = (ROLES as readonly string[]).includes('viewer') ? ('viewer' as Role) : null;
  if (viewer && values.some((value) => provider.viewerValues.includes(value))) return viewer;
  return 'user';
}

/** A valid username to start from for a new account: the provider's preferred name, the email's local part, or "user". */
export function usernameBase(claims: ProviderClaims): string {
  const email = claimedEmail(claims);
  const candidates = [claims.preferred_username, email?.slice(0, email.indexOf('@')), claims.nickname, claims.name];
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    // Room is left for a number that makes the name unique.
    const cleaned = candidate
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/@.*$/, '')
      .replace(/\s+/g, '.')
      .replace(/[^A-Za-z0-9_.-]/g, '')
      .slice(0, USERNAME_MAX - 4);
    if (cleaned.length >= USERNAME_MIN && USERNAME_PATTERN.test(cleaned)) return cleaned;
  }
  return 'user';
}

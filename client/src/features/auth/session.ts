import type { UserDto } from '@vigil/proto';

/** Local-storage keys of the signed-in session (spec section 9). */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
/** Set while admins require two-factor sign-in and this account has not set it up (the app then leads to /profile). */
export const TWO_FACTOR_SETUP_KEY = 'twoFactorSetupRequired';

export interface StoredSession {
  token: string | null;
  user: UserDto | null;
}

function isUser(value: unknown): value is UserDto {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<UserDto>;
  return typeof candidate.id === 'number' && typeof candidate.username === 'string' && typeof candidate.role === 'string';
}

/** Reads the session; a user entry that is not a user object counts as absent so it is fetched again. */
export function readSession(): StoredSession {
  const token = localStorage.getItem(TOKEN_KEY) || null;
  const rawUser = localStorage.getItem(USER_KEY);
  let user: UserDto | null = null;
  if (rawUser) {
    try {
      const parsed: unknown = JSON.parse(rawUser);
      user = isUser(parsed) ? parsed : null;
    } catch {
      user = null;
    }
  }
  return { token, user };
}

export function readToken(): string | null {
  return localStorage.getItem(TOKEN_KEY) || null;
}

export function writeToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function writeUser(user: UserDto): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function readTwoFactorSetupRequired(): boolean {
  return localStorage.getItem(TWO_FACTOR_SETUP_KEY) === 'true';
}

export function writeTwoFactorSetupRequired(required: boolean): void {
  if (required) localStorage.setItem(TWO_FACTOR_SETUP_KEY, 'true');
  else localStorage.removeItem(TWO_FACTOR_SETUP_KEY);
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(TWO_FACTOR_SETUP_KEY);
}

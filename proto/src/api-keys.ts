/**
 * API keys (`Authorization: Bearer vgk_…`): what a key may do besides its owner's role. `read` calls GET/HEAD routes,
 * `write` every method, `metrics` only `GET /api/metrics`. No key opens an account route or a socket.
 */
export type ApiKeyScope = 'read' | 'write' | 'metrics';
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['read', 'write', 'metrics'];

/** The scopes a role may give its own keys: a viewer changes nothing, so neither do its keys. */
export function scopesForRole(role: 'admin' | 'user' | 'viewer'): readonly ApiKeyScope[] {
  return role === 'viewer' ? ['read', 'metrics'] : API_KEY_SCOPES;
}

/** Every key starts so; the server tells keys from session tokens by it. */
export const API_KEY_PREFIX = 'vgk_';

export const API_KEY_LIMITS = {
  nameMax: 64,
  /** Days an optional expiry may lie ahead. */
  expiryDaysMax: 3650,
  /** Live (not revoked) keys one user may hold. */
  perUserMax: 50,
} as const;

export type ApiKeyState = 'active' | 'expired' | 'revoked';

export interface ApiKeyDto {
  id: number;
  name: string;
  /** The key's first characters, to recognise it; never the key itself. */
  prefix: string;
  scope: ApiKeyScope;
  state: ApiKeyState;
  /** Who holds the key (admins see everyone's). */
  owner: { id: number; username: string };
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/** `POST /api/api-keys`. */
export interface CreateApiKeyRequest {
  name: string;
  scope: ApiKeyScope;
  /** Days until the key stops working; absent or null: never. */
  expiresInDays?: number | null;
}

export interface ApiKeysResponse {
  success: true;
  keys: ApiKeyDto[];
}

/** The key is answered once, here, and never again. */
export interface ApiKeyCreatedResponse {
  success: true;
  message: string;
  key: ApiKeyDto;
  secret: string;
}

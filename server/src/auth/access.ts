import type { MessageCode, Role } from '@vigil/proto';
import type { Credential } from './credentials';

/** What a route declares through its decorators (common/decorators.ts), as the auth guard reads it. */
export interface RouteAccess {
  method: string;
  /** `@Roles(...)`. */
  roles?: readonly Role[];
  /** `@SessionOnly()`: an account route; no API key, and self-service for viewers. */
  sessionOnly?: boolean;
  /** `@SelfService()`: a write a viewer may still make (its own session, its own browsers). */
  selfService?: boolean;
  /** `@KeyScope('metrics')`: a metrics key may read it. */
  keyScope?: 'metrics';
  /** `@DisplayKeyAllowed()`: a wall screen's display key opens it. */
  displayKeyAllowed?: boolean;
}

export type Verdict = { ok: true } | { ok: false; status: 400 | 401 | 403 | 429; code: MessageCode; retryAfter?: number };

const OK: Verdict = { ok: true };
const refuse = (status: 401 | 403, code: MessageCode): Verdict => ({ ok: false, status, code });

/** Reads change nothing: what a `read` key and a `viewer` may call. */
export const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Whether a resolved credential may call a non-public route: the one rule for every credential kind, route marking,
 * method and role (table-tested in access.spec.ts).
 */
export function authorize(credential: Credential, route: RouteAccess): Verdict {
  switch (credential.kind) {
    case 'refused':
      return { ok: false, status: credential.status, code: credential.code, retryAfter: credential.retryAfter };
    case 'none':
      return refuse(401, 'auth.required');
    case 'display':
      return route.displayKeyAllowed ? OK : refuse(401, 'auth.required');
    case 'apiKey': {
      if (route.sessionOnly) return refuse(403, 'apiKeys.sessionOnly');
      const inScope =
        credential.scope === 'write' ||
        (credential.scope === 'read' && isRead(route.method)) ||
        (credential.scope === 'metrics' && route.keyScope === 'metrics' && isRead(route.method));
      if (!inScope) return refuse(403, 'apiKeys.scope');
      break;
    }
    case 'session':
      break;
  }
  const { role } = credential.user;
  if (route.roles && !route.roles.includes(role)) return refuse(403, 'auth.forbidden');
  if (role === 'viewer' && !isRead(route.method) && !route.sessionOnly && !route.selfService) return refuse(403, 'auth.readOnly');
  return OK;
}

import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { ApiKeyScope, Role } from '@vigil/proto';
import { normalizeAddress } from './client-address';
import type { CheckedBodyMessages } from './validation';

export const IS_PUBLIC = 'vigil:public';
export const ROLES = 'vigil:roles';
export const SESSION_ONLY = 'vigil:session-only';
export const KEY_SCOPE = 'vigil:key-scope';
export const DISPLAY_KEY_ALLOWED = 'vigil:display-key-allowed';
export const SELF_SERVICE = 'vigil:self-service';

/** The caller, as the auth guard resolved it from the token. */
export interface AuthUser {
  id: number;
  username: string;
  role: Role;
  /** Set when the caller came with an API key rather than a session: the key's id (audit names it). */
  apiKeyId?: number;
  /** With `apiKeyId`: the key's scope, for the one read that a read key may not make (a configuration export with secrets). */
  apiKeyScope?: ApiKeyScope;
}

/** Route open to anonymous callers. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Route limited to these roles. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES, roles);

/**
 * Account route (password, profile, API keys, 2FA): needs a session, refuses API keys, and is self-service, so a
 * `viewer` may call it whatever its method.
 */
export const SessionOnly = () => SetMetadata(SESSION_ONLY, true);

/**
 * Write route a `viewer` may still call because it only touches the caller's own session or account (logout).
 * `@SessionOnly()` routes are self-service already.
 */
export const SelfService = () => SetMetadata(SELF_SERVICE, true);

/** Route an API key of this scope may call besides the scopes that cover it anyway (`metrics` → `/api/metrics`). */
export const KeyScope = (scope: 'metrics') => SetMetadata(KEY_SCOPE, scope);

/**
 * Route a wall display key may open instead of a user credential (`X-Display-Key` header or `key` query); the guard
 * then sets `request.displayKeyId` and no user.
 */
export const DisplayKeyAllowed = () => SetMetadata(DISPLAY_KEY_ALLOWED, true);

export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest().user;
});

/**
 * The caller's address: `req.ip` as Express resolves it with the `trust proxy` function built from TRUST_PROXY,
 * normalised.
 */
export const ClientIp = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  return normalizeAddress(ctx.switchToHttp().getRequest().ip);
});

/**
 * The body of an agent route (enrolment, xugou's register and status): an agent protocol message, checked by the
 * same validators as the socket messages rather than by a DTO class. Every other body is a DTO. The messages tell the
 * shared text rule (common/validation) how to name a refused field, as a DTO's decorators would.
 */
export const CheckedBody =
  (messages: CheckedBodyMessages): ParameterDecorator =>
  (target, key, index) => {
    requestBody(messages)(target, key, index);
    // Still documented as a JSON object body, as @Body() declared it.
    if (key !== undefined) ApiBody({ schema: { type: 'object' } })(target, key, Object.getOwnPropertyDescriptor(target, key)!);
  };

const requestBody = createParamDecorator((_: CheckedBodyMessages, ctx: ExecutionContext): unknown => ctx.switchToHttp().getRequest().body);

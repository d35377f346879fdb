import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Role } from '@vigil/proto';
import { normalizeAddress } from './client-address';

export const IS_PUBLIC = 'vigil:public';
export const ROLES = 'vigil:roles';

/** The caller, as the auth guard resolved it from the token. */
export interface AuthUser {
  id: number;
  username: string;
  role: Role;
}

/** Route open to anonymous callers. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Route limited to these roles. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES, roles);

export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest().user;
});

/**
 * The caller's address. Express resolves `req.ip` with the `trust proxy` function built from TRUST_PROXY (the same
 * rule `handshakeAddress` applies to sockets).
 */
export const ClientIp = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  return normalizeAddress(ctx.switchToHttp().getRequest().ip);
});

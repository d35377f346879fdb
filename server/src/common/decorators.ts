import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { Role } from '@vigil/proto';
import { normalizeAddress } from './client-address';
import type { CheckedBodyMessages } from './validation';

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

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Role } from '@vigil/proto';
import { forbidden, unauthorized } from '../common/api-exception';
import { IS_PUBLIC, ROLES } from '../common/decorators';
import { SessionService } from './session.service';

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/** Global guard: every route needs a valid token unless marked `@Public()`, and the roles it declares. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const request = context.switchToHttp().getRequest<Request & { user?: unknown }>();
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized('auth.required');
    const user = await this.sessions.resolve(token);
    if (!user) throw unauthorized('auth.tokenInvalid');
    request.user = user;

    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES, targets);
    if (roles && !roles.includes(user.role)) throw forbidden();
    return true;
  }
}

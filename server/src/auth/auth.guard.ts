import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Role } from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import { AuthUser, DISPLAY_KEY_ALLOWED, IS_PUBLIC, KEY_SCOPE, ROLES, SELF_SERVICE, SESSION_ONLY } from '../common/decorators';
import { authorize, RouteAccess } from './access';
import { CredentialResolver } from './credentials';

/**
 * Global guard: every route needs a credential unless marked `@Public()`, and passes only what its decorators allow
 * (see `authorize`). No handler checks credentials itself.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    const marked = <T>(key: string) => this.reflector.getAllAndOverride<T | undefined>(key, targets);
    if (marked<boolean>(IS_PUBLIC)) return true;

    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser; displayKeyId?: number }>();
    const route: RouteAccess = {
      method: request.method,
      roles: marked<Role[]>(ROLES),
      sessionOnly: marked<boolean>(SESSION_ONLY),
      selfService: marked<boolean>(SELF_SERVICE),
      keyScope: marked<'metrics'>(KEY_SCOPE),
      displayKeyAllowed: marked<boolean>(DISPLAY_KEY_ALLOWED),
    };
    const credential = await this.credentials.fromRequest(request, { displayKey: route.displayKeyAllowed === true });
    const verdict = authorize(credential, route);
    if (!verdict.ok) throw new ApiException(verdict.status as HttpStatus, verdict.code, undefined, verdict.retryAfter);
    if (credential.kind === 'session' || credential.kind === 'apiKey') request.user = credential.user;
    if (credential.kind === 'display') request.displayKeyId = credential.keyId;
    return true;
  }
}

import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiException } from '../common/api-exception';
import { AuthUser, DisplayKeyAllowed, KeyScope, Public, Roles, SelfService, SessionOnly } from '../common/decorators';
import { AuthGuard } from './auth.guard';
import type { Credential, CredentialResolver } from './credentials';

/** Routes marked as controllers mark them; the guard must read every decorator from the handler or its class. */
class Routes {
  @Public() open() {}
  plain() {}
  @Roles('admin') adminOnly() {}
  @SessionOnly() account() {}
  @SelfService() own() {}
  @Roles('admin') @KeyScope('metrics') metrics() {}
  @DisplayKeyAllowed() wall() {}
}
@SessionOnly()
class AccountRoutes {
  keys() {}
}

function contextFor(handler: () => void, method: string, owner: object = Routes) {
  const request = { method, headers: {} } as Request & { user?: AuthUser; displayKeyId?: number };
  const context = {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => owner,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

const viewer: AuthUser = { id: 3, username: 'noc', role: 'viewer' };

describe('AuthGuard', () => {
  let presented: Credential;
  const fromRequest = jest.fn(async (_request: Request, _options: { displayKey: boolean }) => presented);
  const sut = new AuthGuard(new Reflector(), { fromRequest } as unknown as CredentialResolver);
  const routes = Routes.prototype;

  beforeEach(() => fromRequest.mockClear());

  async function refusal(promise: Promise<boolean>): Promise<{ status: number; code: string; retryAfter?: number } | 'passed'> {
    try {
      await promise;
      return 'passed';
    } catch (error) {
      const e = error as ApiException;
      return { status: e.getStatus(), code: e.code, ...(e.retryAfterSeconds ? { retryAfter: e.retryAfterSeconds } : {}) };
    }
  }

  it('lets anyone through a public route without resolving a credential', async () => {
    const { context } = contextFor(routes.open, 'POST');
    await expect(sut.canActivate(context)).resolves.toBe(true);
    expect(fromRequest).not.toHaveBeenCalled();
  });

  it('asks for a display key only on a route that allows one', async () => {
    presented = { kind: 'display', keyId: 4 };
    const wall = contextFor(routes.wall, 'GET');
    await sut.canActivate(wall.context);
    expect(fromRequest).toHaveBeenLastCalledWith(wall.request, { displayKey: true });
    expect(wall.request.displayKeyId).toBe(4);
    expect(wall.request.user).toBeUndefined();
    await refusal(sut.canActivate(contextFor(routes.plain, 'GET').context));
    expect(fromRequest).toHaveBeenLastCalledWith(expect.anything(), { displayKey: false });
  });

  it('puts the resolved caller on the request, with the key it came with', async () => {
    presented = { kind: 'apiKey', user: { ...viewer, apiKeyId: 9 }, scope: 'read' };
    const { context, request } = contextFor(routes.plain, 'GET');
    await expect(sut.canActivate(context)).resolves.toBe(true);
    expect(request.user).toEqual({ ...viewer, apiKeyId: 9 });
  });

  it.each([
    ['a role', routes.adminOnly, 'GET', { kind: 'session', user: viewer, token: 't', expiresAt: null }, 403, 'auth.forbidden'],
    ['a viewer on a write', routes.plain, 'POST', { kind: 'session', user: viewer, token: 't', expiresAt: null }, 403, 'auth.readOnly'],
    ['a key on an account route', routes.account, 'GET', { kind: 'apiKey', user: viewer, scope: 'read' }, 403, 'apiKeys.sessionOnly'],
    ['a read key on a write', routes.own, 'POST', { kind: 'apiKey', user: viewer, scope: 'read' }, 403, 'apiKeys.scope'],
    ['a metrics key off /metrics', routes.plain, 'GET', { kind: 'apiKey', user: viewer, scope: 'metrics' }, 403, 'apiKeys.scope'],
    ['no credential', routes.plain, 'GET', { kind: 'none' }, 401, 'auth.required'],
    ['a bad key', routes.plain, 'GET', { kind: 'refused', status: 401, code: 'apiKeys.invalid' }, 401, 'apiKeys.invalid'],
  ] as const)('enforces %s from the decorators', async (_, handler, method, credential, status, code) => {
    presented = credential as Credential;
    expect(await refusal(sut.canActivate(contextFor(handler, method).context))).toEqual({ status, code });
  });

  it('lets a viewer through its own self-service writes', async () => {
    presented = { kind: 'session', user: viewer, token: 't', expiresAt: null };
    await expect(sut.canActivate(contextFor(routes.own, 'DELETE').context)).resolves.toBe(true);
    await expect(sut.canActivate(contextFor(routes.account, 'PUT').context)).resolves.toBe(true);
  });

  it('reads a marking declared on the controller class', async () => {
    presented = { kind: 'apiKey', user: viewer, scope: 'write' };
    const verdict = await refusal(sut.canActivate(contextFor(AccountRoutes.prototype.keys, 'GET', AccountRoutes).context));
    expect(verdict).toEqual({ status: 403, code: 'apiKeys.sessionOnly' });
  });

  it('answers a limited address 429 with the seconds to wait', async () => {
    presented = { kind: 'refused', status: 429, code: 'apiKeys.tooManyFailures', retryAfter: 12 };
    const verdict = await refusal(sut.canActivate(contextFor(routes.metrics, 'GET').context));
    expect(verdict).toEqual({ status: 429, code: 'apiKeys.tooManyFailures', retryAfter: 12 });
  });
});

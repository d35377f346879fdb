import { ExecutionContext, HttpStatus } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiException } from '../common/api-exception';
import { AuthUser, IS_PUBLIC, ROLES } from '../common/decorators';
import { AuthGuard, bearerToken } from './auth.guard';
import type { SessionService } from './session.service';

function contextFor(headers: Record<string, string>, metadata: Record<string, unknown> = {}) {
  const request: { headers: Record<string, string>; user?: AuthUser } = { headers };
  const handler = () => undefined;
  for (const [key, value] of Object.entries(metadata)) Reflect.defineMetadata(key, value, handler);
  const context = {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

const admin: AuthUser = { id: 1, username: 'root', role: 'admin' };
const member: AuthUser = { id: 2, username: 'ann', role: 'user' };

describe('AuthGuard', () => {
  const sessions = {
    resolve: async (token: string) => ({ 'admin-token': admin, 'user-token': member })[token] ?? null,
  } as unknown as SessionService;
  const sut = new AuthGuard(new Reflector(), sessions);

  async function statusOf(promise: Promise<boolean>): Promise<number> {
    try {
      await promise;
      return 200;
    } catch (error) {
      return (error as ApiException).getStatus();
    }
  }

  it('lets anyone through a public route', async () => {
    const { context } = contextFor({}, { [IS_PUBLIC]: true });
    await expect(sut.canActivate(context)).resolves.toBe(true);
  });

  it.each([
    ['no header', {}, HttpStatus.UNAUTHORIZED],
    ['a malformed header', { authorization: 'Token abc' }, HttpStatus.UNAUTHORIZED],
    ['an unknown token', { authorization: 'Bearer nope' }, HttpStatus.UNAUTHORIZED],
    ['a valid token', { authorization: 'Bearer user-token' }, 200],
  ])('answers a protected route called with %s by %s', async (_, headers, status) => {
    const { context } = contextFor(headers as Record<string, string>);
    expect(await statusOf(sut.canActivate(context))).toBe(status);
  });

  it.each([
    ['user-token', HttpStatus.FORBIDDEN],
    ['admin-token', 200],
  ])('checks the declared roles on the server (%s → %s)', async (token, status) => {
    const { context } = contextFor({ authorization: `Bearer ${token}` }, { [ROLES]: ['admin'] });
    expect(await statusOf(sut.canActivate(context))).toBe(status);
  });

  it('puts the resolved caller on the request', async () => {
    const { context, request } = contextFor({ authorization: 'Bearer admin-token' });
    await sut.canActivate(context);
    expect(request.user).toEqual(admin);
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.def', 'abc.def'],
    ['bearer abc', 'abc'],
    ['Bearer', null],
    ['Basic abc', null],
    [undefined, null],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

import type { Request } from 'express';
import type { ApiKeysService } from '../api-keys/api-keys.service';
import type { AuthUser } from '../common/decorators';
import type { AppConfig } from '../config/config';
import type { DisplayKeysService } from '../display-keys/display-keys.service';
import type { CredentialLimiter } from './credential-limiter';
import { bearerToken, CredentialResolver } from './credentials';
import type { SessionService } from './session.service';

const ann: AuthUser = { id: 2, username: 'ann', role: 'user' };
const KEY = `vgk_${'k'.repeat(43)}`;

function request(headers: Record<string, string>, query: Record<string, unknown> = {}): Request {
  return { headers, query, ip: '203.0.113.5' } as unknown as Request;
}

describe('CredentialResolver', () => {
  const resolveSession = jest.fn(async (token: string) => (token === 'session-token' ? { user: ann, expiresAt: 1000 } : null));
  const resolveKey = jest.fn(async (secret: string) =>
    secret === KEY ? { id: 5, scope: 'read' as const, user_id: 2, username: 'ann', role: 'viewer' as const } : null,
  );
  const verify = jest.fn(async (key: unknown) =>
    key === 'vgd_good' ? { ok: true as const, id: 8 } : { ok: false as const, code: 'wall.keyInvalid' as const },
  );
  let wait = 0;
  const failed = jest.fn(async () => undefined);
  const sut = new CredentialResolver(
    { resolveSession } as unknown as SessionService,
    { resolve: resolveKey } as unknown as ApiKeysService,
    { verify } as unknown as DisplayKeysService,
    { retryAfter: async () => wait, failed } as unknown as CredentialLimiter,
    { trustProxy: { kind: 'off' } } as unknown as AppConfig,
  );

  beforeEach(() => {
    wait = 0;
    jest.clearAllMocks();
  });

  it('resolves a session token', async () => {
    await expect(sut.fromRequest(request({ authorization: 'Bearer session-token' }), { displayKey: false })).resolves.toEqual({
      kind: 'session',
      user: ann,
      token: 'session-token',
      expiresAt: 1000,
    });
  });

  it("resolves an API key with its owner's current role and the key's id", async () => {
    await expect(sut.fromRequest(request({ authorization: `Bearer ${KEY}` }), { displayKey: false })).resolves.toEqual({
      kind: 'apiKey',
      user: { id: 2, username: 'ann', role: 'viewer', apiKeyId: 5, apiKeyScope: 'read' },
      scope: 'read',
    });
    expect(resolveSession).not.toHaveBeenCalled();
  });

  it.each([
    ['malformed', 'vgk_short'],
    ['unknown', `vgk_${'u'.repeat(43)}`],
  ])('refuses a %s key with the one message and charges the address', async (_, secret) => {
    await expect(sut.fromRequest(request({ authorization: `Bearer ${secret}` }), { displayKey: false })).resolves.toEqual({
      kind: 'refused',
      status: 401,
      code: 'apiKeys.invalid',
    });
    expect(failed).toHaveBeenCalledWith('apiKey', '203.0.113.5');
  });

  it('refuses a limited address before looking its key up', async () => {
    wait = 30;
    const credential = await sut.fromRequest(request({ authorization: `Bearer ${KEY}` }), { displayKey: false });
    expect(credential).toEqual({ kind: 'refused', status: 429, code: 'apiKeys.tooManyFailures', retryAfter: 30 });
    expect(resolveKey).not.toHaveBeenCalled();
  });

  it('reads a display key (header or query) only where the route allows one', async () => {
    await expect(sut.fromRequest(request({ 'x-display-key': 'vgd_good' }), { displayKey: true })).resolves.toEqual({
      kind: 'display',
      keyId: 8,
    });
    await expect(sut.fromRequest(request({}, { key: 'vgd_bad' }), { displayKey: true })).resolves.toMatchObject({
      status: 401,
      code: 'wall.keyInvalid',
    });
    await expect(sut.fromRequest(request({ 'x-display-key': 'vgd_good' }), { displayKey: false })).resolves.toEqual({ kind: 'none' });
  });

  it('refuses an API key on a socket without looking it up, and resolves a session there', async () => {
    const handshake = (auth: unknown) => ({ auth, address: '203.0.113.5', headers: {} });
    await expect(sut.fromHandshake(handshake({ token: KEY }))).resolves.toEqual({
      kind: 'refused',
      status: 401,
      code: 'apiKeys.socketRefused',
    });
    expect(resolveKey).not.toHaveBeenCalled();
    await expect(sut.fromHandshake(handshake({ token: 'session-token' }))).resolves.toMatchObject({ kind: 'session', user: ann });
    await expect(sut.fromHandshake(handshake({ displayKey: 'vgd_good' }))).resolves.toEqual({ kind: 'display', keyId: 8 });
    await expect(sut.fromHandshake(handshake({}))).resolves.toEqual({ kind: 'none' });
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

import { openPendingSignIn, PendingSignIn, readCookie, sealPendingSignIn } from './sso-cookie';

const key = Buffer.alloc(32, 7);
const pending: PendingSignIn = {
  provider: 'corp',
  state: 'state-1',
  nonce: 'nonce-1',
  codeVerifier: 'verifier-1',
  redirectUri: 'https://vigil.example/api/auth/sso/corp/callback',
  expiresAt: Math.floor(Date.now() / 1000) + 600,
};

describe('the pending sign-in cookie', () => {
  it('opens what it sealed', () => {
    expect(openPendingSignIn(key, sealPendingSignIn(key, pending))).toEqual(pending);
  });

  it.each([
    ['missing', undefined],
    ['altered', sealPendingSignIn(key, pending).replace(/^./, (c) => (c === 'e' ? 'f' : 'e'))],
    ['signed with another key', sealPendingSignIn(Buffer.alloc(32, 8), pending)],
    ['expired', sealPendingSignIn(key, { ...pending, expiresAt: Math.floor(Date.now() / 1000) - 1 })],
    ['malformed', 'a.b.c'],
  ])('refuses a %s cookie', (_, value) => {
    expect(openPendingSignIn(key, value)).toBeNull();
  });

  it('reads one cookie from a Cookie header', () => {
    expect(readCookie('a=1; vigil_sso=x.y; b=2', 'vigil_sso')).toBe('x.y');
    expect(readCookie(undefined, 'vigil_sso')).toBeUndefined();
  });
});

import type { OidcProviderConfig } from '../config/sso-config';
import { domainAllowed, mappedRole, ProviderClaims, usernameBase, verifiedEmail } from './identity-rules';

const provider = (overrides: Partial<OidcProviderConfig> = {}): OidcProviderConfig => ({
  id: 'corp',
  name: 'Corp',
  issuer: 'https://id.example.com',
  clientId: 'vigil',
  clientSecret: null,
  scopes: ['openid'],
  allowedDomains: [],
  roleClaim: null,
  adminValues: [],
  viewerValues: [],
  autoCreate: false,
  ...overrides,
});
const claims = (extra: Record<string, unknown>): ProviderClaims => ({ sub: 'subject-1', ...extra });

describe('identity rules', () => {
  it.each([
    [{ email: 'A@Corp.Example', email_verified: true }, 'a@corp.example'],
    [{ email: 'a@corp.example', email_verified: 'true' }, 'a@corp.example'],
    [{ email: 'a@corp.example', email_verified: false }, null],
    [{ email: 'a@corp.example' }, null],
    [{ email: 'not an address', email_verified: true }, null],
  ])('reads the verified email of %j as %s', (extra, expected) => {
    expect(verifiedEmail(claims(extra))).toBe(expected);
  });

  it.each([
    [[], { email: 'x@anywhere.example' }, true],
    [['corp.example'], { email: 'x@corp.example', email_verified: true }, true],
    [['corp.example'], { email: 'x@corp.example', email_verified: false }, false],
    [['corp.example'], { email: 'x@sub.corp.example', email_verified: true }, false],
    [['corp.example'], { email: 'x@evil.example', email_verified: true }, false],
    [['corp.example'], {}, false],
  ])('with allowed domains %j lets %j in: %s', (allowedDomains, extra, expected) => {
    expect(domainAllowed(provider({ allowedDomains }), claims(extra))).toBe(expected);
  });

  it.each([
    [null, { groups: ['ops'] }, null],
    ['groups', { groups: ['ops', 'vigil-admins'] }, 'admin'],
    ['groups', { groups: 'vigil-admins' }, 'admin'],
    ['groups', { groups: ['ops'] }, 'user'],
    ['groups', {}, 'user'],
    ['realm_access.roles', { realm_access: { roles: ['vigil-admins'] } }, 'admin'],
  ])('maps claim %s of %j to %s', (roleClaim, extra, expected) => {
    expect(mappedRole(provider({ roleClaim, adminValues: ['vigil-admins'], viewerValues: ['noc'] }), claims(extra))).toBe(expected);
  });

  it('maps the viewer values to the viewer role', () => {
    expect(mappedRole(provider({ roleClaim: 'groups', viewerValues: ['noc'] }), claims({ groups: ['noc'] }))).toBe('viewer');
  });

  it.each([
    [{ preferred_username: 'alice.smith' }, 'alice.smith'],
    [{ preferred_username: 'alice@corp.example' }, 'alice'],
    [{ email: 'Bob.Jones+ops@corp.example' }, 'bob.jonesops'],
    [{ name: 'Ünïcode Ñame' }, 'Unicode.Name'],
    [{ name: '李' }, 'user'],
    [{ preferred_username: 'x'.repeat(80) }, 'x'.repeat(28)],
  ])('derives a valid username from %j: %s', (extra, expected) => {
    expect(usernameBase(claims(extra))).toBe(expected);
  });
});

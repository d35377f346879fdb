import { ConfigError } from './config';
import { loadSsoConfig } from './sso-config';

const corp = { OIDC_PROVIDERS: 'corp', OIDC_CORP_ISSUER: 'https://id.corp.example', OIDC_CORP_CLIENT_ID: 'vigil' };

describe('single sign-on configuration', () => {
  it('is off without OIDC_PROVIDERS', () => {
    expect(loadSsoConfig({})).toEqual({ providers: [], allowHttp: false });
  });

  it('reads a provider with its defaults', () => {
    expect(loadSsoConfig(corp).providers).toEqual([
      {
        id: 'corp',
        name: 'corp',
        issuer: 'https://id.corp.example',
        clientId: 'vigil',
        clientSecret: null,
        scopes: ['openid', 'email', 'profile'],
        allowedDomains: [],
        roleClaim: null,
        adminValues: [],
        viewerValues: [],
        autoCreate: false,
      },
    ]);
  });

  it('reads every variable of a provider', () => {
    const [provider] = loadSsoConfig({
      ...corp,
      OIDC_CORP_CLIENT_SECRET: 's3cret',
      OIDC_CORP_NAME: 'Corp SSO',
      OIDC_CORP_SCOPES: 'email groups',
      OIDC_CORP_ALLOWED_DOMAINS: '@Corp.Example, corp.org',
      OIDC_CORP_ROLE_CLAIM: 'groups',
      OIDC_CORP_ADMIN_VALUES: 'vigil-admins',
      OIDC_CORP_VIEWER_VALUES: 'noc, stakeholders',
      OIDC_CORP_AUTO_CREATE: 'true',
    }).providers;
    expect(provider).toMatchObject({
      name: 'Corp SSO',
      clientSecret: 's3cret',
      scopes: ['openid', 'email', 'groups'],
      allowedDomains: ['corp.example', 'corp.org'],
      roleClaim: 'groups',
      adminValues: ['vigil-admins'],
      viewerValues: ['noc', 'stakeholders'],
      autoCreate: true,
    });
  });

  it.each([
    [{ OIDC_PROVIDERS: 'corp' }, /OIDC_CORP_ISSUER is required/],
    [{ ...corp, OIDC_CORP_CLIENT_ID: '' }, /OIDC_CORP_CLIENT_ID is required/],
    [{ ...corp, OIDC_CORP_ISSUER: 'http://id.corp.example' }, /must start with https:\/\//],
    [{ ...corp, OIDC_PROVIDERS: 'corp,corp' }, /twice/],
    [{ ...corp, OIDC_PROVIDERS: 'co_rp' }, /letters or digits/],
    [{ ...corp, OIDC_CORP_ALLOWED_DOMAINS: 'not a domain' }, /ALLOWED_DOMAINS/],
    [{ ...corp, OIDC_CORP_ADMIN_VALUES: 'admins' }, /need OIDC_CORP_ROLE_CLAIM/],
    [{ ...corp, OIDC_CORP_AUTO_CREATE: 'maybe' }, /true or false/],
  ])('refuses %j', (env, message) => {
    expect(() => loadSsoConfig(env)).toThrow(ConfigError);
    expect(() => loadSsoConfig(env)).toThrow(message);
  });

  it('accepts an http issuer with OIDC_ALLOW_HTTP', () => {
    expect(loadSsoConfig({ ...corp, OIDC_CORP_ISSUER: 'http://127.0.0.1:4000', OIDC_ALLOW_HTTP: 'true' }).providers[0].issuer).toBe(
      'http://127.0.0.1:4000',
    );
  });
});

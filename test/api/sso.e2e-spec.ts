import request from 'supertest';
import { createUser, login, registerFirstAdmin, Session, userInput } from '../factories/users';
import { LoopbackProvider, signInWithProvider, startLoopbackProvider, tokenOf } from '../support/oidc-loopback';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 31, requirement 5: single sign-on through a loopback OpenID Connect provider (the npm `oidc-provider`), driven
 * over HTTP as a browser would: the provider's login form, then Vigil's callback with the state cookie.
 * Two providers point at it: `corp` creates accounts and maps the `groups` claim to roles; `partner` lets in verified
 * emails of partner.example only and creates nobody.
 */
describe('single sign-on (OpenID Connect)', () => {
  let provider: LoopbackProvider;
  let app: TestApp;
  let root: Session;

  const me = async (token: string) =>
    (await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(200)).body.user;
  const signIn = async (providerId: string, loginName: string, claims: Record<string, unknown>) => {
    await provider.setAccount(loginName, claims);
    return signInWithProvider(app.url, providerId, loginName);
  };

  beforeAll(async () => {
    provider = await startLoopbackProvider();
    app = await startTestApp({
      env: {
        OIDC_ALLOW_HTTP: 'true',
        OIDC_PROVIDERS: 'corp,partner',
        OIDC_CORP_ISSUER: provider.url,
        OIDC_CORP_CLIENT_ID: 'vigil-corp',
        OIDC_CORP_CLIENT_SECRET: 'corp-client-secret-value',
        OIDC_CORP_NAME: 'Corp SSO',
        OIDC_CORP_SCOPES: 'openid email profile groups',
        OIDC_CORP_ROLE_CLAIM: 'groups',
        OIDC_CORP_ADMIN_VALUES: 'vigil-admins',
        OIDC_CORP_AUTO_CREATE: 'true',
        OIDC_PARTNER_ISSUER: provider.url,
        OIDC_PARTNER_CLIENT_ID: 'vigil-partner',
        OIDC_PARTNER_CLIENT_SECRET: 'partner-client-secret-value',
        OIDC_PARTNER_ALLOWED_DOMAINS: 'partner.example',
      },
    });
    for (const id of ['corp', 'partner']) {
      await provider.addClient({
        clientId: `vigil-${id}`,
        clientSecret: `${id}-client-secret-value`,
        redirectUris: [`${app.url}/api/auth/sso/${id}/callback`],
      });
    }
    root = await registerFirstAdmin(app.url);
  }, 90_000);

  afterAll(async () => {
    await app?.destroy();
    await provider?.stop();
  });

  it('lists the configured providers for the login page, without their secrets', async () => {
    const { body, text } = await request(app.url).get('/api/auth/sso/providers').expect(200);
    expect(body).toEqual({
      success: true,
      providers: [
        { id: 'corp', name: 'Corp SSO' },
        { id: 'partner', name: 'partner' },
      ],
      passwordLoginDisabled: false,
    });
    expect(text).not.toContain('client-secret');
  });

  it('refuses to disable password sign-in while no admin has signed in with single sign-on', async () => {
    const { body } = await request(app.url).put('/api/settings').set(root.auth).send({ passwordLoginDisabled: true }).expect(409);
    expect(body).toMatchObject({ success: false, code: 'settings.passwordLoginNeedsSsoAdmin' });
  });

  it('creates an account at the first sign-in, with no usable password, and hands the token in the fragment only', async () => {
    const location = await signIn('corp', 'alice', { email: 'alice@corp.example', email_verified: true, preferred_username: 'alice' });
    const token = tokenOf(location);
    expect(token).not.toBeNull();
    const user = await me(token!);
    expect(user).toMatchObject({ username: 'alice', email: 'alice@corp.example', role: 'user' });
    // Signing in again reaches the same account through its link.
    expect((await me(tokenOf(await signInWithProvider(app.url, 'corp', 'alice'))!)).id).toBe(user.id);
    await request(app.url).post('/api/auth/login').send({ username: 'alice', password: '!' }).expect(401);
  });

  it('links an existing account by its verified email', async () => {
    const bob = await createUser(app.url, root);
    const token = tokenOf(await signIn('corp', 'bob-at-idp', { email: bob.user.email, email_verified: true }));
    expect(await me(token!)).toMatchObject({ id: bob.user.id, username: bob.user.username });
  });

  it('refuses to link an existing account by an email the provider has not verified', async () => {
    const carol = await createUser(app.url, root);
    const location = await signIn('corp', 'carol-at-idp', { email: carol.user.email, email_verified: false });
    expect(location).toBe('/login?sso_error=sso.emailNotVerified');
  });

  it('maps the groups claim to the admin role', async () => {
    const token = tokenOf(
      await signIn('corp', 'dana', { email: 'dana@corp.example', email_verified: true, groups: ['staff', 'vigil-admins'] }),
    );
    expect(await me(token!)).toMatchObject({ username: 'dana', role: 'admin' });
  });

  it('refuses an email domain the provider does not allow, and creates nobody there', async () => {
    expect(await signIn('partner', 'eve', { email: 'eve@elsewhere.example', email_verified: true })).toBe(
      '/login?sso_error=sso.domainRefused',
    );
    expect(await signIn('partner', 'frank', { email: 'frank@partner.example', email_verified: false })).toBe(
      '/login?sso_error=sso.domainRefused',
    );
    expect(await signIn('partner', 'gina', { email: 'gina@partner.example', email_verified: true })).toBe('/login?sso_error=sso.noAccount');
  });

  it('refuses a callback with a bad state, or from another browser, with one message and a log line without secrets', async () => {
    await provider.setAccount('mallory', { email: 'mallory@corp.example', email_verified: true });
    const forged = await signInWithProvider(app.url, 'corp', 'mallory', {
      tamperCallback: (callback) => {
        callback.searchParams.set('state', 'forged-state');
        return callback;
      },
    });
    expect(forged).toBe('/login?sso_error=sso.stateInvalid');
    expect(await signInWithProvider(app.url, 'corp', 'mallory', { dropVigilCookie: true })).toBe('/login?sso_error=sso.stateInvalid');
    expect(app.output()).toMatch(/Single sign-on with corp refused \(sso\.stateInvalid\)/);
    expect(app.output()).not.toMatch(/corp-client-secret-value|code=|forged-state/);
    await request(app.url).get('/api/auth/me').expect(401);
  });

  it('refuses an unknown provider and a provider error with the same kind of landing', async () => {
    const start = await request(app.url).get('/api/auth/sso/nope/start').expect(302);
    expect(start.headers.location).toBe('/login?sso_error=sso.unknownProvider');
    const refused = await signInWithProvider(app.url, 'corp', 'alice', {
      tamperCallback: (callback) => {
        callback.searchParams.delete('code');
        callback.searchParams.set('error', 'access_denied');
        return callback;
      },
    });
    expect(refused).toBe('/login?sso_error=sso.providerError');
  });

  describe('disabling password sign-in', () => {
    it('refuses passwords and registration once an admin can sign in with single sign-on, which keeps working', async () => {
      await request(app.url).put('/api/settings').set(root.auth).send({ allowRegistration: true }).expect(200);
      // Dana became an admin through the groups claim, with a corp identity.
      const { body } = await request(app.url).put('/api/settings').set(root.auth).send({ passwordLoginDisabled: true }).expect(200);
      expect(body.settings).toMatchObject({ passwordLoginDisabled: true });
      const refused = await request(app.url).post('/api/auth/login').send({ username: 'admin', password: root.password }).expect(403);
      expect(refused.body).toMatchObject({ success: false, code: 'auth.passwordLoginDisabled' });
      await request(app.url)
        .post('/api/auth/register')
        .send({ username: 'late', email: 'late@example.test', password: 'correct-horse-1' })
        .expect(403);
      expect((await request(app.url).get('/api/auth/status').expect(200)).body.allowRegistration).toBe(false);
      expect(tokenOf(await signInWithProvider(app.url, 'corp', 'alice'))).not.toBeNull();
    });

    it('never locks the admins out: with no admin able to use single sign-on, admins sign in with their password again', async () => {
      const dana = (await request(app.url).get('/api/users?search=dana').set(root.auth).expect(200)).body.users[0];
      // Root's session still works; deleting dana leaves no admin with a single sign-on identity.
      await request(app.url).delete(`/api/users/${dana.id}`).set(root.auth).expect(200);
      await login(app.url, 'admin', root.password);
      const member = userInput();
      await request(app.url).post('/api/users').set(root.auth).send(member).expect(201);
      const refused = await request(app.url)
        .post('/api/auth/login')
        .send({ username: member.username, password: member.password })
        .expect(403);
      expect(refused.body).toMatchObject({ code: 'auth.passwordLoginDisabled' });
      await request(app.url).put('/api/settings').set(root.auth).send({ passwordLoginDisabled: false }).expect(200);
    });
  });
});

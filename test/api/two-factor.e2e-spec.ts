import request from 'supertest';
import { LOGIN_FREE_FAILURES_PER_PAIR, MESSAGES, RECOVERY_CODE_COUNT } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';
import { otpauthSecret, totpCode, totpStepNow } from '../support/totp';

/** Issue 31, requirement 4: TOTP two-factor sign-in with recovery codes, against the real server. */
describe('two-factor sign-in API', () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(() => app?.destroy());

  const api = () => request(app.url);
  const signIn = (session: Session, code?: string) =>
    api()
      .post('/api/auth/login')
      .send({ username: session.user.username, password: session.password, ...(code === undefined ? {} : { code }) });

  /** Sets two-factor sign-in up for the account; answers its secret, the step the enabling code used and the codes. */
  async function enable(session: Session): Promise<{ secret: string; step: number; recoveryCodes: string[] }> {
    const { body: setup } = await api().post('/api/auth/2fa/setup').set(session.auth).expect(200);
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Vigil:/);
    expect(otpauthSecret(setup.otpauthUrl)).toBe(setup.secret);
    const step = totpStepNow();
    const { body } = await api()
      .post('/api/auth/2fa/enable')
      .set(session.auth)
      .send({ code: totpCode(setup.secret, step) })
      .expect(200);
    expect(body).toMatchObject({ success: true, message: MESSAGES['twoFactor.enabled'] });
    return { secret: setup.secret, step, recoveryCodes: body.recoveryCodes };
  }

  it('keeps a pending secret out of sign-in and replaces it on a second setup', async () => {
    const member = await createUser(app.url, admin);
    const { body: first } = await api().post('/api/auth/2fa/setup').set(member.auth).expect(200);
    await signIn(member).expect(200);
    const { body: second } = await api().post('/api/auth/2fa/setup').set(member.auth).expect(200);
    expect(second.secret).not.toBe(first.secret);
    const { body } = await api()
      .post('/api/auth/2fa/enable')
      .set(member.auth)
      .send({ code: totpCode(first.secret) })
      .expect(400);
    expect(body).toEqual({ success: false, message: MESSAGES['twoFactor.codeInvalid'], code: 'twoFactor.codeInvalid' });
    const { body: status } = await api().get('/api/auth/2fa').set(member.auth).expect(200);
    expect(status).toEqual({ success: true, enabled: false, recoveryCodesLeft: 0, required: false });
  });

  it('asks for the code after the password, signs in with it once, and refuses it replayed', async () => {
    const member = await createUser(app.url, admin);
    const { secret, step, recoveryCodes } = await enable(member);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    const { body: status } = await api().get('/api/auth/2fa').set(member.auth).expect(200);
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });

    const { body: asked } = await signIn(member).expect(401);
    expect(asked).toEqual({
      success: false,
      twoFactorRequired: true,
      message: MESSAGES['auth.twoFactorRequired'],
      code: 'auth.twoFactorRequired',
    });
    // The code that enabled it is spent already.
    const { body: replayedEnable } = await signIn(member, totpCode(secret, step)).expect(401);
    expect(replayedEnable).toMatchObject({ twoFactorRequired: true, code: 'auth.twoFactorInvalid' });

    const next = totpCode(secret, step + 1);
    const { body: signedIn } = await signIn(member, next).expect(200);
    expect(Object.keys(signedIn).sort()).toEqual(['message', 'success', 'token', 'user']);
    await api()
      .get('/api/auth/me')
      .set({ Authorization: `Bearer ${signedIn.token}` })
      .expect(200);
    await signIn(member, next).expect(401);
  });

  it('refuses a wrong password first, without a hint that the account has two-factor sign-in', async () => {
    const member = await createUser(app.url, admin);
    const { secret } = await enable(member);
    const { body } = await api()
      .post('/api/auth/login')
      .send({ username: member.user.username, password: 'wrong-password-1', code: totpCode(secret, totpStepNow() + 1) })
      .expect(401);
    expect(body).toEqual({ success: false, message: MESSAGES['auth.invalidCredentials'], code: 'auth.invalidCredentials' });
  });

  it('accepts each recovery code once', async () => {
    const member = await createUser(app.url, admin);
    const { recoveryCodes } = await enable(member);
    await signIn(member, recoveryCodes[0].toUpperCase()).expect(200);
    await signIn(member, recoveryCodes[0]).expect(401);
    const { body } = await api().get('/api/auth/2fa').set(member.auth).expect(200);
    expect(body.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('regenerates recovery codes for a code, and the old ones stop working', async () => {
    const member = await createUser(app.url, admin);
    const { recoveryCodes } = await enable(member);
    const { body } = await api().post('/api/auth/2fa/recovery-codes').set(member.auth).send({ code: recoveryCodes[1] }).expect(200);
    expect(body).toMatchObject({ success: true, message: MESSAGES['twoFactor.recoveryCodesCreated'] });
    expect(body.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    await signIn(member, recoveryCodes[2]).expect(401);
    await signIn(member, body.recoveryCodes[0]).expect(200);
  });

  it('disables only with the password and a code', async () => {
    const member = await createUser(app.url, admin);
    const { secret, step, recoveryCodes } = await enable(member);
    const wrongPassword = await api()
      .post('/api/auth/2fa/disable')
      .set(member.auth)
      .send({ password: 'wrong-password-1', code: recoveryCodes[0] })
      .expect(400);
    expect(wrongPassword.body.code).toBe('users.currentPasswordWrong');
    const noCode = await api().post('/api/auth/2fa/disable').set(member.auth).send({ password: member.password }).expect(400);
    expect(noCode.body.code).toBe('twoFactor.codeRequired');
    await api()
      .post('/api/auth/2fa/disable')
      .set(member.auth)
      .send({ password: member.password, code: totpCode(secret, step) })
      .expect(400);

    const { body } = await api()
      .post('/api/auth/2fa/disable')
      .set(member.auth)
      .send({ password: member.password, code: totpCode(secret, step + 1) })
      .expect(200);
    expect(body).toEqual({ success: true, message: MESSAGES['twoFactor.disabled'] });
    await signIn(member).expect(200);
  });

  it('never answers the secret or the codes again', async () => {
    const member = await createUser(app.url, admin);
    const { secret, recoveryCodes } = await enable(member);
    const reads = await Promise.all([
      api().get('/api/auth/2fa').set(member.auth),
      api().get('/api/auth/me').set(member.auth),
      api().get(`/api/users/${member.user.id}`).set(admin.auth),
    ]);
    for (const read of reads) {
      expect(JSON.stringify(read.body)).not.toContain(secret);
      for (const code of recoveryCodes) expect(JSON.stringify(read.body)).not.toContain(code);
    }
    const { body } = await api().post('/api/auth/2fa/setup').set(member.auth).expect(409);
    expect(body.code).toBe('twoFactor.alreadyEnabled');
  });

  it('flags accounts without it while admins require it, in the sign-in answer and in /me', async () => {
    const member = await createUser(app.url, admin);
    const { body: settings } = await api().put('/api/settings').set(admin.auth).send({ requireTwoFactor: true }).expect(200);
    expect(settings.settings).toMatchObject({ requireTwoFactor: true, allowRegistration: false });
    try {
      const { body: signedIn } = await signIn(member).expect(200);
      expect(signedIn.twoFactorSetupRequired).toBe(true);
      const { body: me } = await api().get('/api/auth/me').set(member.auth).expect(200);
      expect(me.twoFactorSetupRequired).toBe(true);
      const { body: status } = await api().get('/api/auth/2fa').set(member.auth).expect(200);
      expect(status.required).toBe(true);

      await enable(member);
      const { body: after } = await api().get('/api/auth/me').set(member.auth).expect(200);
      expect(after).not.toHaveProperty('twoFactorSetupRequired');
    } finally {
      await api().put('/api/settings').set(admin.auth).send({ requireTwoFactor: false }).expect(200);
    }
    const { body: me } = await api().get('/api/auth/me').set(admin.auth).expect(200);
    expect(me).not.toHaveProperty('twoFactorSetupRequired');
  });

  it('lets an admin reset another user’s two-factor sign-in (a lost phone), recorded in the audit log', async () => {
    const member = await createUser(app.url, admin);
    await enable(member);
    await signIn(member).expect(401);

    await api().delete(`/api/auth/2fa/users/${member.user.id}`).set(member.auth).expect(403);
    const { body } = await api().delete(`/api/auth/2fa/users/${member.user.id}`).set(admin.auth).expect(200);
    expect(body).toMatchObject({ success: true, message: MESSAGES['twoFactor.reset'] });
    await signIn(member).expect(200);
    await api().delete('/api/auth/2fa/users/999999').set(admin.auth).expect(404);

    const { body: audit } = await api()
      .get(`/api/audit?action=two_factor.disabled&target_type=user&target_id=${member.user.id}`)
      .set(admin.auth)
      .expect(200);
    expect(audit.entries).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ username: admin.user.username }), action: 'two_factor.disabled' }),
    ]);
  });

  it('refuses API keys on every two-factor route', async () => {
    const { body: key } = await api().post('/api/api-keys').set(admin.auth).send({ name: '2fa probe', scope: 'write' }).expect(201);
    const bearer = { Authorization: `Bearer ${key.secret}` };
    const calls = [
      api().get('/api/auth/2fa').set(bearer),
      api().post('/api/auth/2fa/setup').set(bearer),
      api().post('/api/auth/2fa/enable').set(bearer).send({ code: '123456' }),
      api().post('/api/auth/2fa/disable').set(bearer).send({ password: admin.password, code: '123456' }),
      api().post('/api/auth/2fa/recovery-codes').set(bearer).send({ code: '123456' }),
    ];
    for (const response of await Promise.all(calls)) expect(response.status).toBe(403);
  });

  it('counts wrong codes like wrong passwords: 429 past the limit, even with the right code', async () => {
    const member = await createUser(app.url, admin);
    const { secret, step } = await enable(member);
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i += 1) await signIn(member, '000000').expect(401);
    const { body, headers } = await signIn(member, totpCode(secret, step + 1)).expect(429);
    expect(body.code).toBe('auth.tooManyAttempts');
    expect(Number(headers['retry-after'])).toBeGreaterThan(0);
  });
});

import request from 'supertest';
import { LOGIN_FREE_FAILURES_PER_PAIR, MESSAGES } from '@vigil/proto';
import { login, Session, userInput } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

describe('auth API', () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.destroy());

  const api = () => request(app.url);

  it('tells visitors that the first account has yet to be created', async () => {
    const { body } = await api().get('/api/auth/status').expect(200);
    expect(body).toEqual({ success: true, needsSetup: true, allowRegistration: true });
  });

  it('makes the first registered account the admin, with no seeded account before it', async () => {
    await api().post('/api/auth/login').send({ username: 'admin', password: 'admin' }).expect(401);
    const input = userInput({ username: 'founder' });
    const { body } = await api().post('/api/auth/register').send(input).expect(201);
    expect(body).toMatchObject({ success: true, message: 'Registration successful, please login' });
    expect(body.user).toMatchObject({ username: 'founder', email: input.email, role: 'admin' });
    expect(JSON.stringify(body)).not.toMatch(/password|hash/i);
    admin = await login(app.url, input.username, input.password);
    expect(admin.user.role).toBe('admin');
  });

  it('closes self-registration after the first account, with a clear 403', async () => {
    const { body: status } = await api().get('/api/auth/status').expect(200);
    expect(status).toEqual({ success: true, needsSetup: false, allowRegistration: false });
    const { body } = await api().post('/api/auth/register').send(userInput()).expect(403);
    expect(body).toEqual({ success: false, message: MESSAGES['auth.registrationClosed'], code: 'auth.registrationClosed' });
  });

  it('lets people register as ordinary users once an admin opens registration', async () => {
    await api().put('/api/settings').set(admin.auth).send({ allowRegistration: true }).expect(200);
    const { body } = await api()
      .post('/api/auth/register')
      .send(userInput({ username: 'second' }))
      .expect(201);
    expect(body.user.role).toBe('user');
    await api().put('/api/settings').set(admin.auth).send({ allowRegistration: false }).expect(200);
    await api().post('/api/auth/register').send(userInput()).expect(403);
  });

  it.each([
    [{ username: 'FOUNDER' }, 'Username already exists'],
    [{ email: 'FOUNDER@example.test' }, 'Email already exists'],
  ])('refuses a duplicate (%j) with 409 and the spec text', async (overrides, message) => {
    await api().put('/api/settings').set(admin.auth).send({ allowRegistration: true }).expect(200);
    const { body } = await api().post('/api/auth/register').send(userInput(overrides)).expect(409);
    expect(body).toMatchObject({ success: false, message });
    await api().put('/api/settings').set(admin.auth).send({ allowRegistration: false }).expect(200);
  });

  it.each([
    [{ password: 'correct-horse-1', email: 'x@example.test' }, MESSAGES['validation.usernameRequired']],
    [{ username: 'newbie', email: 'x@example.test' }, MESSAGES['validation.passwordRequired']],
    [{ username: 'newbie', password: 'short', email: 'x@example.test' }, MESSAGES['validation.passwordLength']],
    [{ username: 'newbie', password: 'correct-horse-1', email: 'not-an-email' }, MESSAGES['validation.emailInvalid']],
    [{ username: 'newbie', password: 'correct-horse-1' }, MESSAGES['validation.emailRequired']],
  ])('answers invalid registration %j with 400 "%s"', async (payload, message) => {
    const { body } = await api().post('/api/auth/register').send(payload).expect(400);
    expect(body).toMatchObject({ success: false, message });
  });

  it('answers a wrong password and an unknown user with the same 401 text', async () => {
    const wrong = await api().post('/api/auth/login').send({ username: 'founder', password: 'nope-nope-1' }).expect(401);
    const unknown = await api().post('/api/auth/login').send({ username: 'ghost', password: 'nope-nope-1' }).expect(401);
    expect(wrong.body).toMatchObject({ success: false, message: 'Username or password is incorrect' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('reads the signed-in user from the token and refuses bad tokens', async () => {
    const { body } = await api().get('/api/auth/me').set(admin.auth).expect(200);
    expect(body).toEqual({ success: true, user: admin.user });
    await api().get('/api/auth/me').expect(401);
    const forged = admin.token.slice(0, -3) + (admin.token.endsWith('abc') ? 'xyz' : 'abc');
    const { body: bad } = await api().get('/api/auth/me').set('Authorization', `Bearer ${forged}`).expect(401);
    expect(bad).toMatchObject({ success: false, code: 'auth.tokenInvalid' });
  });

  it('issues tokens with an expiry', async () => {
    const payload = JSON.parse(Buffer.from(admin.token.split('.')[1], 'base64url').toString());
    expect(payload.exp - payload.iat).toBe(7 * 24 * 3600);
  });

  it('rate-limits failed logins per address and username with a 429, even for the right password', async () => {
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i += 1) {
      await api()
        .post('/api/auth/login')
        .send({ username: 'second', password: `wrong-${i}-pass` })
        .expect(401);
    }
    const { body } = await api().post('/api/auth/login').send({ username: 'second', password: 'correct-horse-1' }).expect(429);
    expect(body).toMatchObject({ success: false, message: MESSAGES['auth.tooManyAttempts'] });
    // Another account from the same address is not locked out by it.
    await login(app.url, 'founder', admin.password);
  });
});

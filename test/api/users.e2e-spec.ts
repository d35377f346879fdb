import request from 'supertest';
import { MESSAGES } from '@vigil/proto';
import { createUser, login, registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

describe('users API', () => {
  let app: TestApp;
  let admin: Session;
  let ann: Session;
  let bob: Session;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    ann = await createUser(app.url, admin);
    bob = await createUser(app.url, admin);
  });
  afterAll(() => app?.destroy());

  const api = () => request(app.url);

  describe('authorization matrix', () => {
    type Caller = 'anonymous' | 'user' | 'admin';
    const headers = (caller: Caller) => (caller === 'anonymous' ? {} : caller === 'user' ? ann.auth : admin.auth);
    // Each route with the status expected for anonymous, an ordinary user (acting on someone else), and an admin.
    const routes: Array<[string, (caller: Caller) => request.Test, Record<Caller, number>]> = [
      ['GET /api/health', () => api().get('/api/health'), { anonymous: 200, user: 200, admin: 200 }],
      ['GET /api/auth/status', () => api().get('/api/auth/status'), { anonymous: 200, user: 200, admin: 200 }],
      ['GET /api/auth/me', (c) => api().get('/api/auth/me').set(headers(c)), { anonymous: 401, user: 200, admin: 200 }],
      ['GET /api/users', (c) => api().get('/api/users').set(headers(c)), { anonymous: 401, user: 403, admin: 200 }],
      [
        'POST /api/users',
        (c) =>
          api()
            .post('/api/users')
            .set(headers(c))
            .send({ username: `m${c}${Date.now()}`, password: 'password-123' }),
        { anonymous: 401, user: 403, admin: 201 },
      ],
      ['GET /api/users/{other}', (c) => api().get(`/api/users/${bob.user.id}`).set(headers(c)), { anonymous: 401, user: 403, admin: 200 }],
      [
        'PUT /api/users/{other}',
        (c) =>
          api()
            .put(`/api/users/${bob.user.id}`)
            .set(headers(c))
            .send({ email: `bob-${c}@example.test` }),
        { anonymous: 401, user: 403, admin: 200 },
      ],
      [
        'POST /api/users/{other}/change-password',
        (c) =>
          api()
            .post(`/api/users/${bob.user.id}/change-password`)
            .set(headers(c))
            .send({ currentPassword: bob.password, newPassword: 'another-pass-1' }),
        { anonymous: 401, user: 403, admin: 403 },
      ],
      ['DELETE /api/users/{missing}', (c) => api().delete('/api/users/999999').set(headers(c)), { anonymous: 401, user: 403, admin: 404 }],
      ['GET /api/settings', (c) => api().get('/api/settings').set(headers(c)), { anonymous: 401, user: 403, admin: 200 }],
      [
        'PUT /api/settings',
        (c) => api().put('/api/settings').set(headers(c)).send({ allowRegistration: false }),
        { anonymous: 401, user: 403, admin: 200 },
      ],
    ];
    const cases = routes.flatMap(([name, call, expected]) =>
      (Object.keys(expected) as Caller[]).map((caller) => [name, caller, call, expected[caller]] as const),
    );

    it.each(cases)('%s as %s', async (_, caller, call, status) => {
      const response = await call(caller);
      expect(response.status).toBe(status);
      expect(response.body.success).toBe(status < 400);
      if (status >= 400) expect(typeof response.body.message).toBe('string');
    });
  });

  it('lists users with paging and no secrets', async () => {
    const { body } = await api().get('/api/users?page=1&pageSize=2').set(admin.auth).expect(200);
    expect(body).toMatchObject({ success: true, page: 1, pageSize: 2 });
    expect(body.total).toBeGreaterThanOrEqual(3);
    expect(body.users).toHaveLength(2);
    expect(Object.keys(body.users[0]).sort()).toEqual(['created_at', 'email', 'id', 'role', 'username']);
  });

  it('lets a user read and update only themself, and not their role', async () => {
    const { body } = await api().get(`/api/users/${ann.user.id}`).set(ann.auth).expect(200);
    expect(body.user.username).toBe(ann.user.username);
    const renamed = `${ann.user.username}x`;
    const { body: updated } = await api().put(`/api/users/${ann.user.id}`).set(ann.auth).send({ username: renamed, email: '' }).expect(200);
    expect(updated.user).toMatchObject({ username: renamed, email: null, role: 'user' });
    ann.user = updated.user;
    await api().put(`/api/users/${ann.user.id}`).set(ann.auth).send({ role: 'admin' }).expect(403);
  });

  it('refuses to rename someone onto a name that is taken', async () => {
    const { body } = await api()
      .put(`/api/users/${ann.user.id}`)
      .set(ann.auth)
      .send({ username: bob.user.username.toUpperCase() })
      .expect(409);
    expect(body.message).toBe('Username already exists');
  });

  it('changes only the caller’s own password, requiring the current one, and revokes older tokens', async () => {
    const wrong = await api()
      .post(`/api/users/${ann.user.id}/change-password`)
      .set(ann.auth)
      .send({ currentPassword: 'not-my-password', newPassword: 'brand-new-pass-1' })
      .expect(400);
    expect(wrong.body.message).toBe(MESSAGES['users.currentPasswordWrong']);

    const { body } = await api()
      .post(`/api/users/${ann.user.id}/change-password`)
      .set(ann.auth)
      .send({ currentPassword: ann.password, newPassword: 'brand-new-pass-1' })
      .expect(200);
    expect(body).toMatchObject({ success: true, message: MESSAGES['users.passwordChanged'] });
    await api().get('/api/auth/me').set(ann.auth).expect(401);
    await api().get('/api/auth/me').set('Authorization', `Bearer ${body.token}`).expect(200);
    await api().post('/api/auth/login').send({ username: ann.user.username, password: ann.password }).expect(401);
    ann = await login(app.url, ann.user.username, 'brand-new-pass-1');
  });

  it('lets an admin reset another user’s password and role through PUT', async () => {
    await api().put(`/api/users/${bob.user.id}`).set(admin.auth).send({ password: 'reset-by-admin-1', role: 'admin' }).expect(200);
    await api().get('/api/auth/me').set(bob.auth).expect(401);
    bob = await login(app.url, bob.user.username, 'reset-by-admin-1');
    expect(bob.user.role).toBe('admin');
    await api().put(`/api/users/${bob.user.id}`).set(admin.auth).send({ role: 'user' }).expect(200);
  });

  it('stops an admin from deleting themself or demoting the last admin', async () => {
    const self = await api().delete(`/api/users/${admin.user.id}`).set(admin.auth).expect(400);
    expect(self.body.message).toBe(MESSAGES['users.cannotDeleteSelf']);
    const demote = await api().put(`/api/users/${admin.user.id}`).set(admin.auth).send({ role: 'user' }).expect(409);
    expect(demote.body.message).toBe(MESSAGES['users.lastAdmin']);
  });

  it('deletes a user, whose token then stops working', async () => {
    const doomed = await createUser(app.url, admin);
    await api().delete(`/api/users/${doomed.user.id}`).set(admin.auth).expect(200);
    await api().get('/api/auth/me').set(doomed.auth).expect(401);
    const { body } = await api().get(`/api/users/${doomed.user.id}`).set(admin.auth).expect(404);
    expect(body.message).toBe(MESSAGES['users.notFound']);
  });

  it.each(['abc', '0', '-4', '1.5'])("answers a non-numeric id %j with 400 'invalid id'", async (id) => {
    const { body } = await api().get(`/api/users/${id}`).set(admin.auth).expect(400);
    expect(body).toMatchObject({ success: false, message: 'invalid id' });
  });

  it('lets an admin create an admin, who can then manage users', async () => {
    const second = await createUser(app.url, admin, 'admin');
    await api().get('/api/users').set(second.auth).expect(200);
  });
});

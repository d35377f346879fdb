import request from 'supertest';
import { login, registerFirstAdmin, userInput } from '../factories/users';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';

async function createAccountAndRestart(app: TestApp) {
  const admin = await registerFirstAdmin(app.url);
  const input = userInput();
  await request(app.url).post('/api/users').set(admin.auth).send(input).expect(201);
  await request(app.url).put('/api/settings').set(admin.auth).send({ allowRegistration: true }).expect(200);
  await app.restart();
  return { admin, input };
}

async function expectEverythingKept(
  app: TestApp,
  admin: Awaited<ReturnType<typeof registerFirstAdmin>>,
  input: ReturnType<typeof userInput>,
) {
  // The token issued before the restart still verifies: the generated secret was stored, not regenerated.
  const { body } = await request(app.url).get('/api/users').set(admin.auth).expect(200);
  expect(body.users.map((user: { username: string }) => user.username)).toEqual(expect.arrayContaining(['admin', input.username]));
  await login(app.url, input.username, input.password);
  const { body: settings } = await request(app.url).get('/api/settings').set(admin.auth).expect(200);
  expect(settings.settings.allowRegistration).toBe(true);
}

describe('data survives a restart', () => {
  it('in embedded mode (PostgreSQL under DATA_DIR/pg)', async () => {
    const app = await startTestApp({ databaseMode: 'embedded' });
    try {
      const { admin, input } = await createAccountAndRestart(app);
      await expectEverythingKept(app, admin, input);
    } finally {
      await app.destroy();
    }
  });

  it('on a PostgreSQL server given by DATABASE_URL', async () => {
    const app = await startTestApp({ databaseMode: 'url' });
    try {
      const { admin, input } = await createAccountAndRestart(app);
      await expectEverythingKept(app, admin, input);
    } finally {
      await app.destroy();
    }
  });
});

describe('several instances on one database', () => {
  let database: TestDatabase;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase('url');
    // Started together: one runs the migrations under the advisory lock, the other waits for it.
    [first, second] = await Promise.all([startTestApp({ database }), startTestApp({ database })]);
  });
  afterAll(async () => {
    await Promise.all([first?.destroy(), second?.destroy()]);
    await database?.drop();
  });

  it('agree on the generated JWT secret, so a token from one works on the other', async () => {
    const admin = await registerFirstAdmin(first.url);
    const { body } = await request(second.url).get('/api/auth/me').set(admin.auth).expect(200);
    expect(body.user.username).toBe('admin');
  });

  it('never fall back to a hard-coded secret', async () => {
    const admin = await login(first.url, 'admin', userInput({ username: 'admin' }).password);
    const other = await createTestDatabase('url');
    const stranger = await startTestApp({ database: other });
    try {
      await request(stranger.url).get('/api/auth/me').set(admin.auth).expect(401);
    } finally {
      await stranger.destroy();
      await other.drop();
    }
  });
});

import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import { AGENT_NAMESPACE, AGENT_PROTOCOL_VERSION, MESSAGES, type MessageCode } from '@vigil/proto';
import { enrollAgent } from '../factories/agents';
import { login, registerFirstAdmin, Session, userInput } from '../factories/users';
import { ProxiedApp, startAppBehindProxy } from '../support/proxied-app';
import { useTestRedis, type TestRedis } from '../support/redis';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 27, findings 4 and 5: anonymous callers must not turn cheap requests into database or CPU work. Unknown agent
 * tokens and credentials and unknown display keys are limited per address before any lookup (a batch looks its tokens
 * up in one query); registration is limited per address, and a closed or taken registration is refused before the
 * password is hashed. Against the real server process; the database sits behind a relay the test can cut, so a 429
 * that still answers while the database refuses every connection proves no lookup was made.
 */

/** Unknown credentials one address may present before it must wait (the server's CredentialLimiter burst). */
const CREDENTIAL_BURST = 20;
/**
 * The servers refill one credential a minute instead of one a second, so a slow run does not earn a refill between
 * spending the burst and the assertions that follow it.
 */
const SLOW_REFILL = { CREDENTIAL_FAILURES_PER_MINUTE: '1' };
/** Registrations one address may attempt at once (the server's RegistrationLimiter burst). */
const REGISTRATION_BURST = 10;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const xugou = require('../fixtures/xugou-agent.json');
const xugouStatus = (token: string, hostname: string) => ({
  ...xugou.status[0],
  token,
  hostname,
  timestamp: new Date().toISOString(),
  report_interval_seconds: 60,
});
/** The finding's request: a buffered post of 100 statuses, each under its own unknown token. */
const unknownBatch = (round: number) =>
  Array.from({ length: 100 }, (_, i) => xugouStatus(`vgr_unknown-${round}-${i}-${'x'.repeat(32)}`, `ghost-${round}-${i}`));

const refusal = (code: MessageCode) => ({ success: false, message: MESSAGES[code], code });

type Handshake = { connected: true; socket: Socket } | { connected: false; data: { code?: string; retry_after?: number } };

/** Opens a socket as a client at `address` (the relay names it in X-Forwarded-For; TRUST_PROXY=loopback believes it). */
function handshake(url: string, auth: Record<string, unknown>, address: string, sockets: Socket[]): Promise<Handshake> {
  const socket = io(url, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { 'X-Forwarded-For': address },
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ connected: true, socket }));
    socket.once('connect_error', (error: Error & { data?: { code?: string; retry_after?: number } }) =>
      resolve({ connected: false, data: error.data ?? {} }),
    );
  });
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);

describe('hardening: anonymous amplification (issue 27, findings 4 and 5)', () => {
  let proxied: ProxiedApp;
  let app: TestApp;
  let proxy: TcpProxy;
  let admin: Session;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    proxied = await startAppBehindProxy({
      TRUST_PROXY: 'loopback',
      ...SLOW_REFILL,
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    });
    ({ app, proxy } = proxied);
    admin = await registerFirstAdmin(app.url);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(() => proxied?.destroy());

  /** A request as the client at `address`. */
  const from = (address: string) => ({
    get: (path: string) => request(app.url).get(path).set('X-Forwarded-For', address),
    post: (path: string) => request(app.url).post(path).set('X-Forwarded-For', address),
  });

  /** Runs `work` while the database refuses every connection, then waits until the server reads it again. */
  async function withoutDatabase(work: () => Promise<void>): Promise<void> {
    await proxy.cut('refuse');
    try {
      await work();
    } finally {
      await proxy.restore();
    }
    await waitFor(
      async () => (await request(app.url).get('/api/auth/me').set(admin.auth)).status,
      (status) => status === 200,
      20_000,
    );
  }

  describe('finding 4: unknown credentials are limited per address before any lookup', () => {
    it('answers 100 statuses under unknown tokens 401, then 429 with Retry-After, with no lookup, and only for that address', async () => {
      const attacker = from('198.51.100.4');
      for (let round = 0; round < CREDENTIAL_BURST; round += 1) {
        const { status, body } = await attacker.post('/api/agents/status').send(unknownBatch(round));
        expect({ round, status, body }).toEqual({ round, status: 401, body: refusal('agent.tokenInvalid') });
      }
      const limited = await attacker.post('/api/agents/status').send(unknownBatch(CREDENTIAL_BURST)).expect(429);
      expect(limited.body).toEqual(refusal('agent.tooManyFailures'));
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The other agent routes share the address's allowance.
      await attacker
        .post('/api/agents/register')
        .send({ ...xugou.register, token: 'vgr_unknown' })
        .expect(429);
      await attacker
        .post('/api/agents/enroll')
        .send({ token: 'vgr_unknown', hello: { hostname: 'h', ip_addresses: [], os: 'linux', platform: 'linux', agent_version: '1' } })
        .expect(429);

      // Another address, with a real token, is served as before.
      const { body: token } = await request(app.url).post('/api/agents/token/generate').set(admin.auth).expect(200);
      await from('198.51.100.5').post('/api/agents/status').send(xugouStatus(token.token, 'real-host-1')).expect(200);

      // While the database refuses connections, the refused address still gets its 429: nothing was looked up.
      await withoutDatabase(async () => {
        const started = Date.now();
        const { status, body } = await attacker.post('/api/agents/status').send(unknownBatch(99));
        expect({ status, body }).toEqual({ status: 429, body: refusal('agent.tooManyFailures') });
        expect(Date.now() - started).toBeLessThan(1_000);
        // An address that still has its allowance is looked up, and the lookup fails: the cut is real.
        await from('198.51.100.44').post('/api/agents/status').send(unknownBatch(98)).expect(503);
      });
    });

    it('refuses unknown display keys the same way over HTTP and on the wall socket, sharing one allowance', async () => {
      const { body: key } = await request(app.url).post('/api/wall/keys').set(admin.auth).send({ name: 'lobby' }).expect(201);
      const guesser = from('198.51.100.6');
      for (let i = 0; i < CREDENTIAL_BURST / 2; i += 1) {
        await guesser.get(`/api/wall/data?key=vgd_guess-${i}-xxxxxxxx`).expect(401);
        const refused = await handshake(app.url, { displayKey: `vgd_guess-socket-${i}` }, '198.51.100.6', sockets);
        expect(refused).toEqual({ connected: false, data: { code: 'wall.keyInvalid' } });
      }
      const limited = await guesser.get('/api/wall/data?key=vgd_guess-last-xxxxxxxx').expect(429);
      expect(limited.body).toEqual(refusal('wall.tooManyFailures'));
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const socket = await handshake(app.url, { displayKey: key.secret }, '198.51.100.6', sockets);
      expect(socket).toEqual({ connected: false, data: { code: 'wall.tooManyFailures', retry_after: expect.any(Number) } });
      // The key itself still works from elsewhere.
      await from('198.51.100.7').get(`/api/wall/data?key=${key.secret}`).expect(200);
      expect(await handshake(app.url, { displayKey: key.secret }, '198.51.100.7', sockets)).toMatchObject({ connected: true });

      await withoutDatabase(async () => {
        const { status, body } = await guesser.get('/api/wall/data?key=vgd_guess-cut-xxxxxxxx');
        expect({ status, body }).toEqual({ status: 429, body: refusal('wall.tooManyFailures') });
        const refused = await handshake(app.url, { displayKey: 'vgd_guess-cut' }, '198.51.100.6', sockets);
        expect(refused).toMatchObject({ connected: false, data: { code: 'wall.tooManyFailures' } });
      });
    });

    it('refuses agent handshakes with unknown credentials, then any handshake from that address, before the lookup', async () => {
      const agentUrl = `${app.url}${AGENT_NAMESPACE}`;
      const { credential } = await enrollAgent(app.url, admin, 'handshake-host');
      for (let i = 0; i < CREDENTIAL_BURST; i += 1) {
        const refused = await handshake(
          agentUrl,
          { protocol: AGENT_PROTOCOL_VERSION, credential: `vga_guess-${i}` },
          '198.51.100.9',
          sockets,
        );
        expect(refused).toMatchObject({ connected: false, data: { code: 'agent.credentialInvalid' } });
      }
      const limited = await handshake(agentUrl, { protocol: AGENT_PROTOCOL_VERSION, credential }, '198.51.100.9', sockets);
      expect(limited).toEqual({
        connected: false,
        data: { code: 'agent.tooManyFailures', message: MESSAGES['agent.tooManyFailures'], retry_after: expect.any(Number) },
      });
      expect(await handshake(agentUrl, { protocol: AGENT_PROTOCOL_VERSION, credential }, '198.51.100.10', sockets)).toMatchObject({
        connected: true,
      });

      await withoutDatabase(async () => {
        const refused = await handshake(
          agentUrl,
          { protocol: AGENT_PROTOCOL_VERSION, credential: 'vga_guess-cut' },
          '198.51.100.9',
          sockets,
        );
        expect(refused).toMatchObject({ connected: false, data: { code: 'agent.tooManyFailures' } });
      });
    });
  });

  describe('finding 5: registration is checked before it hashes, and limited per address', () => {
    const hashes = async () =>
      metric((await request(app.url).get('/api/metrics').set(admin.auth).expect(200)).text, 'vigil_password_hashes_total');

    it('answers closed registrations 403 without hashing a password, then 429 with Retry-After for that address only', async () => {
      const before = await hashes();
      const flooder = from('198.51.100.20');
      for (let i = 0; i < REGISTRATION_BURST; i += 1) {
        const { status, body } = await flooder.post('/api/auth/register').send(userInput());
        expect({ i, status, body }).toEqual({ i, status: 403, body: refusal('auth.registrationClosed') });
      }
      expect(await hashes()).toBe(before);
      const limited = await flooder.post('/api/auth/register').send(userInput()).expect(429);
      expect(limited.body).toEqual(refusal('auth.tooManyRegistrations'));
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
      await from('198.51.100.21').post('/api/auth/register').send(userInput()).expect(403);
      // Sign-in is not registration: the flooder's address still signs in.
      await flooder.post('/api/auth/login').send({ username: admin.user.username, password: admin.password }).expect(200);
    });

    it('refuses a taken username without hashing, and hashes once for a registration that succeeds', async () => {
      await request(app.url).put('/api/settings').set(admin.auth).send({ allowRegistration: true }).expect(200);
      try {
        const before = await hashes();
        const newcomer = from('198.51.100.22');
        await newcomer
          .post('/api/auth/register')
          .send(userInput({ username: admin.user.username }))
          .expect(409);
        expect(await hashes()).toBe(before);
        const input = userInput();
        await newcomer.post('/api/auth/register').send(input).expect(201);
        expect(await hashes()).toBe(before + 1);
        await login(app.url, input.username, input.password);
      } finally {
        await request(app.url).put('/api/settings').set(admin.auth).send({ allowRegistration: false }).expect(200);
      }
    });
  });
});

describe('hardening: the per-address limits hold across instances sharing a Redis (issue 27, findings 4 and 5)', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    redis = await useTestRedis();
    database = await createTestDatabase('url');
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, TRUST_PROXY: 'loopback', ...SLOW_REFILL };
    [a, b] = await Promise.all([0, 1].map(() => startTestApp({ database, env })));
    await registerFirstAdmin(a.url);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    await redis?.cleanup();
  });

  it('refuses on instance B the address that spent its allowance on instance A', async () => {
    const address = '203.0.113.50';
    for (let i = 0; i < CREDENTIAL_BURST; i += 1) {
      await request(a.url).get(`/api/wall/data?key=vgd_guess-${i}-xxxxxxxx`).set('X-Forwarded-For', address).expect(401);
    }
    for (let i = 0; i < REGISTRATION_BURST; i += 1) {
      await request(a.url).post('/api/auth/register').set('X-Forwarded-For', address).send(userInput()).expect(403);
    }
    const wall = await request(b.url).get('/api/wall/data?key=vgd_guess-b-xxxxxxxx').set('X-Forwarded-For', address).expect(429);
    expect(wall.body.code).toBe('wall.tooManyFailures');
    const register = await request(b.url).post('/api/auth/register').set('X-Forwarded-For', address).send(userInput()).expect(429);
    expect(register.body.code).toBe('auth.tooManyRegistrations');
    await request(b.url).post('/api/auth/register').set('X-Forwarded-For', '203.0.113.51').send(userInput()).expect(403);
    // The buckets live under the installation's prefix and expire by themselves.
    const keys = await redis.keys();
    expect(keys).toEqual(
      expect.arrayContaining([`${redis.prefix}:limit:credentials:display:${address}`, `${redis.prefix}:limit:registrations:${address}`]),
    );
  });
});

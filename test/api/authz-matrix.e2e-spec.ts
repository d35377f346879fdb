import { createHmac, randomBytes } from 'node:crypto';
import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import { AGENT_NAMESPACE, AGENT_PROTOCOL_VERSION } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 14, requirement 13: every route of the server's OpenAPI document × every kind of caller, against one explicit
 * table. A route without an entry, or an entry without a route, fails the test, so a new route must say who may
 * call it. Only the authorization outcome is asserted: 'ok' means the call got past authorization (any answer but
 * 401/403 — a validation 400 or a 404 for the throwaway id is fine); 401 and 403 must be exactly that.
 */
const IDENTITIES = [
  'anonymous',
  'user',
  'admin',
  'forged',
  'expired',
  'wall',
  'agent',
  'viewer',
  'readKey',
  'writeKey',
  'metricsKey',
] as const;
type Identity = (typeof IDENTITIES)[number];
type Outcome = 'ok' | 401 | 403;
type Row = Record<Identity, Outcome>;

/**
 * Anyone, whatever they present (a bad token on a public route is ignored, not refused). The `…Key` callers are API
 * keys of the admin (issue 31), so their scope, not their owner's role, decides; `viewer` is the read-only role.
 */
const PUBLIC: Row = {
  anonymous: 'ok',
  user: 'ok',
  admin: 'ok',
  forged: 'ok',
  expired: 'ok',
  wall: 'ok',
  agent: 'ok',
  viewer: 'ok',
  readKey: 'ok',
  writeKey: 'ok',
  metricsKey: 'ok',
};
/** A read for any signed-in caller; a display key or an agent credential is no credential. */
const SIGNED_IN: Row = { ...PUBLIC, anonymous: 401, forged: 401, expired: 401, wall: 401, agent: 401, metricsKey: 403 };
/** A change: a viewer and a read key are refused. */
const MEMBER_WRITE: Row = { ...SIGNED_IN, viewer: 403, readKey: 403 };
/** A change a viewer may still make, as it touches only its own things (its browsers); no read key though. */
const SELF_SERVICE: Row = { ...SIGNED_IN, readKey: 403 };
/** An account route (`@SessionOnly()`): any session, no API key. */
const ACCOUNT: Row = { ...SIGNED_IN, readKey: 403, writeKey: 403, metricsKey: 403 };
const ADMIN: Row = { ...SIGNED_IN, user: 403, viewer: 403 };
const ADMIN_WRITE: Row = { ...ADMIN, readKey: 403 };
/** Called on the admin's own record: the owner passes, another user is refused by the service. */
const OWNER: Row = { ...SIGNED_IN, user: 403, viewer: 403 };
/** An account route on the admin's own record. */
const OWN_ACCOUNT: Row = { ...ACCOUNT, user: 403, viewer: 403 };
/** The wall: a display key or any signed-in caller. */
const WALL: Row = { ...SIGNED_IN, wall: 'ok' };
/** Prometheus: admins, and the admin's metrics key. */
const METRICS: Row = { ...ADMIN, metricsKey: 'ok' };

const MATRIX: Record<string, Row> = {
  'POST /api/auth/login': PUBLIC,
  'POST /api/auth/register': PUBLIC,
  'GET /api/auth/status': PUBLIC,
  'GET /api/auth/sso/providers': PUBLIC,
  'GET /api/auth/sso/{provider}/start': PUBLIC,
  'GET /api/auth/sso/{provider}/callback': PUBLIC,
  'GET /api/auth/me': SIGNED_IN,
  // Two-factor sign-in: the caller's own account, a session only.
  'GET /api/auth/2fa': ACCOUNT,
  'POST /api/auth/2fa/setup': ACCOUNT,
  'POST /api/auth/2fa/enable': ACCOUNT,
  'POST /api/auth/2fa/disable': ACCOUNT,
  'POST /api/auth/2fa/recovery-codes': ACCOUNT,
  'DELETE /api/auth/2fa/users/{id}': OWN_ACCOUNT,
  'GET /api/settings': ADMIN,
  'PUT /api/settings': ADMIN_WRITE,
  'GET /api/audit': ADMIN,
  'GET /api/export': ADMIN,
  'GET /api/export/schema': ADMIN,
  'POST /api/apply': ADMIN_WRITE,
  'GET /api/users': ADMIN,
  'POST /api/users': ADMIN_WRITE,
  'GET /api/users/{id}': OWNER,
  'PUT /api/users/{id}': OWN_ACCOUNT,
  'DELETE /api/users/{id}': ADMIN_WRITE,
  'POST /api/users/{id}/change-password': OWN_ACCOUNT,
  'GET /api/monitors': SIGNED_IN,
  'POST /api/monitors': MEMBER_WRITE,
  'POST /api/monitors/test': MEMBER_WRITE,
  'GET /api/monitors/limits': SIGNED_IN,
  'GET /api/monitors/{id}': SIGNED_IN,
  'PUT /api/monitors/{id}': MEMBER_WRITE,
  'DELETE /api/monitors/{id}': MEMBER_WRITE,
  'POST /api/monitors/{id}/check': MEMBER_WRITE,
  'POST /api/monitors/{id}/pause': MEMBER_WRITE,
  'POST /api/monitors/{id}/resume': MEMBER_WRITE,
  'GET /api/monitors/{id}/stats': SIGNED_IN,
  'GET /api/monitors/{id}/checks': SIGNED_IN,
  // Data export: whoever may read the monitor or agent may download its history (issue 34).
  'GET /api/monitors/{id}/checks/export': SIGNED_IN,
  'GET /api/agents/{id}/metrics/export': SIGNED_IN,
  // Import from Uptime Kuma (issue 34): the file carries every secret of the Kuma install.
  'POST /api/import/uptime-kuma': ADMIN_WRITE,
  'GET /api/import/uptime-kuma/jobs/{jobId}': ADMIN,
  'GET /api/reports/availability': SIGNED_IN,
  'GET /api/monitors/{id}/dependencies': SIGNED_IN,
  'POST /api/monitors/{id}/status': MEMBER_WRITE,
  'GET /api/monitors/{id}/screenshot': SIGNED_IN,
  'GET /api/monitors/{id}/locations': SIGNED_IN,
  'GET /api/monitors/{id}/host': SIGNED_IN,
  'POST /api/agents/token/generate': MEMBER_WRITE,
  // The agents' own calls: authenticated by the registration token in the body, not by a caller identity.
  'POST /api/agents/enroll': PUBLIC,
  'POST /api/agents/register': PUBLIC,
  'POST /api/agents/status': PUBLIC,
  'GET /api/agents': SIGNED_IN,
  'GET /api/agents/{id}': SIGNED_IN,
  'PUT /api/agents/{id}': MEMBER_WRITE,
  'DELETE /api/agents/{id}': MEMBER_WRITE,
  'GET /api/agents/{id}/metrics': SIGNED_IN,
  'GET /api/agents/{id}/insight': SIGNED_IN,
  'GET /api/agents/{id}/devices': SIGNED_IN,
  'GET /api/agents/{id}/dependencies': SIGNED_IN,
  'GET /api/status/config': SIGNED_IN,
  'POST /api/status/config': MEMBER_WRITE,
  'GET /api/status/data': PUBLIC,
  'GET /api/status/badge/{file}': PUBLIC,
  'GET /api/dashboard': SIGNED_IN,
  'GET /api/wall/data': WALL,
  'GET /api/wall/keys': ADMIN,
  'POST /api/wall/keys': ADMIN_WRITE,
  'DELETE /api/wall/keys/{id}': ADMIN_WRITE,
  'GET /api/notifications': SIGNED_IN,
  'POST /api/notifications/channels': MEMBER_WRITE,
  'POST /api/notifications/channels/test': MEMBER_WRITE,
  'PUT /api/notifications/channels/{id}': MEMBER_WRITE,
  'DELETE /api/notifications/channels/{id}': MEMBER_WRITE,
  'POST /api/notifications/channels/{id}/test': MEMBER_WRITE,
  'POST /api/notifications/settings': MEMBER_WRITE,
  'GET /api/notifications/history': SIGNED_IN,
  // Alert episodes (issue 29): read by everyone signed in; acknowledging and muting are changes.
  'GET /api/alerts': SIGNED_IN,
  'GET /api/alerts/{id}': SIGNED_IN,
  'POST /api/alerts/{id}/ack': MEMBER_WRITE,
  'POST /api/monitors/{id}/mute': MEMBER_WRITE,
  'POST /api/agents/{id}/mute': MEMBER_WRITE,
  // Browser notifications: each user's own browsers (the service scopes every call to the caller).
  'GET /api/web-push/key': SIGNED_IN,
  'GET /api/web-push/subscriptions': SIGNED_IN,
  'POST /api/web-push/subscriptions': SELF_SERVICE,
  'DELETE /api/web-push/subscriptions': SELF_SERVICE,
  'GET /api/notifications/templates': SIGNED_IN,
  'POST /api/notifications/templates': MEMBER_WRITE,
  'POST /api/notifications/templates/preview': MEMBER_WRITE,
  'PUT /api/notifications/templates/{id}': MEMBER_WRITE,
  'DELETE /api/notifications/templates/{id}': MEMBER_WRITE,
  'PUT /api/notifications/channels/{id}/templates': MEMBER_WRITE,
  // Push monitors' heartbeats: authenticated by the push token in the path, not by a caller identity.
  'GET /api/push/{token}': PUBLIC,
  'POST /api/push/{token}': PUBLIC,
  'GET /api/metrics': METRICS,
  'GET /api/api-keys': ACCOUNT,
  'POST /api/api-keys': ACCOUNT,
  'DELETE /api/api-keys/{id}': ACCOUNT,
  'GET /api/health': PUBLIC,
  // Status pages (issue 30): configured as the spec's status page is (members write, a viewer reads); each page's
  // public data, feeds and badges open to anyone (a password page's to its cookie, which no caller here holds).
  'GET /api/status-pages': SIGNED_IN,
  'POST /api/status-pages': MEMBER_WRITE,
  'GET /api/status-pages/{slug}': SIGNED_IN,
  'PUT /api/status-pages/{slug}': MEMBER_WRITE,
  'DELETE /api/status-pages/{slug}': MEMBER_WRITE,
  'GET /api/status-pages/{slug}/data': PUBLIC,
  'GET /api/status-pages/{slug}/groups/{index}': PUBLIC,
  'POST /api/status-pages/{slug}/unlock': PUBLIC,
  'GET /api/status-pages/{slug}/feed.rss': PUBLIC,
  'GET /api/status-pages/{slug}/feed.atom': PUBLIC,
  'GET /api/status-pages/{slug}/badge.svg': PUBLIC,
  'GET /api/status-pages/{slug}/badges/{component}/{file}': PUBLIC,
  // Incidents (issue 30): read by everyone signed in, drafts too; written by members as monitors are.
  'GET /api/incidents': SIGNED_IN,
  'POST /api/incidents': MEMBER_WRITE,
  'GET /api/incidents/{id}': SIGNED_IN,
  'PUT /api/incidents/{id}': MEMBER_WRITE,
  'DELETE /api/incidents/{id}': MEMBER_WRITE,
  'POST /api/incidents/{id}/updates': MEMBER_WRITE,
  // Maintenance windows (issue 30): read by everyone signed in; written (and ended) by members as monitors are.
  'GET /api/maintenance': SIGNED_IN,
  'POST /api/maintenance': MEMBER_WRITE,
  'GET /api/maintenance/calendar': SIGNED_IN,
  'GET /api/maintenance/{id}': SIGNED_IN,
  'PUT /api/maintenance/{id}': MEMBER_WRITE,
  'DELETE /api/maintenance/{id}': MEMBER_WRITE,
  'POST /api/maintenance/{id}/end': MEMBER_WRITE,
  // Status page subscriptions (issue 30): visitors subscribe and open their links; only admins see the addresses.
  'POST /api/status-pages/{slug}/subscribe': PUBLIC,
  'GET /api/subscriptions/confirm': PUBLIC,
  'GET /api/subscriptions/unsubscribe': PUBLIC,
  'POST /api/subscriptions/unsubscribe': PUBLIC,
  'GET /api/status-pages/{slug}/subscribers': ADMIN,
  'DELETE /api/status-pages/{slug}/subscribers/{id}': ADMIN_WRITE,
};

/**
 * HTTP routes outside the OpenAPI document, listed here so they are decided too: the API's own documentation and
 * the agent program's downloads (files, not API). socket.io is covered by the socket table below.
 */
const OUTSIDE_OPENAPI: Record<string, Row> = {
  'GET /api/docs': PUBLIC,
  'GET /api/docs-json': PUBLIC,
  'GET /downloads/{file}': PUBLIC,
};

const THROWAWAY_ID = 999_999;

interface Context {
  adminId: number;
}

/** Harmless requests: throwaway ids, empty or refused bodies, so the matrix never destroys its own fixtures. */
function requestFor(route: string, context: Context): { method: string; path: string; body?: unknown } {
  const [method, template] = route.split(' ');
  const ownRecord = /^\/api\/users\/\{id\}(\/change-password)?$/.test(template) && method !== 'DELETE';
  const path = template
    .replace('{id}', String(ownRecord ? context.adminId : THROWAWAY_ID))
    .replace('{file}', template.startsWith('/downloads') ? 'install.sh' : `${THROWAWAY_ID}.svg`);
  if (route === 'POST /api/users/{id}/change-password') {
    // A valid body, so the ownership rule (not validation) decides; the wrong current password changes nothing.
    return { method, path, body: { currentPassword: 'not-the-password-1', newPassword: 'Another-pass-123' } };
  }
  return { method, path, body: method === 'POST' || method === 'PUT' ? {} : undefined };
}

/** An HS256 JWT, as the server's own tokens are. */
function jwt(claims: Record<string, unknown>, secret: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('authorization matrix', () => {
  const secret = randomBytes(36).toString('base64url');
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let viewer: Session;
  let headers: Record<Identity, Record<string, string>>;
  let openApiRoutes: string[];
  let displayKey: string;
  let credential: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { JWT_SECRET: secret } });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    viewer = await createUser(app.url, admin, 'viewer');
    const apiKey = async (scope: string) =>
      (
        await request(app.url)
          .post('/api/api-keys')
          .set(admin.auth)
          .send({ name: `matrix ${scope}`, scope })
          .expect(201)
      ).body.secret as string;
    const claims = JSON.parse(Buffer.from(admin.token.split('.')[1], 'base64url').toString()) as Record<string, number>;
    const now = Math.floor(Date.now() / 1000);
    displayKey = (await request(app.url).post('/api/wall/keys').set(admin.auth).send({ name: 'matrix' }).expect(201)).body.secret;
    const { body: token } = await request(app.url).post('/api/agents/token/generate').set(member.auth).expect(200);
    const hello = { hostname: 'matrix-host', ip_addresses: ['198.51.100.9'], os: 'Linux', platform: 'linux', agent_version: '1' };
    credential = (await request(app.url).post('/api/agents/enroll').send({ token: token.token, hello }).expect(200)).body.credential;
    headers = {
      anonymous: {},
      user: member.auth,
      admin: admin.auth,
      // The admin's own claims, signed with a secret that is not the server's.
      forged: { Authorization: `Bearer ${jwt({ ...claims, iat: now, exp: now + 3600 }, randomBytes(36).toString('base64url'))}` },
      // The admin's own claims, signed with the server's secret, but expired a minute ago.
      expired: { Authorization: `Bearer ${jwt({ ...claims, iat: now - 7200, exp: now - 60 }, secret)}` },
      wall: { 'X-Display-Key': displayKey },
      agent: { Authorization: `Bearer ${credential}` },
      viewer: viewer.auth,
      readKey: { Authorization: `Bearer ${await apiKey('read')}` },
      writeKey: { Authorization: `Bearer ${await apiKey('write')}` },
      metricsKey: { Authorization: `Bearer ${await apiKey('metrics')}` },
    };
    const { body: document } = await request(app.url).get('/api/docs-json').expect(200);
    openApiRoutes = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
  });

  it('has exactly one entry for every route of the OpenAPI document', () => {
    expect(openApiRoutes.length).toBeGreaterThan(40);
    expect([...openApiRoutes].sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it('checks the session tokens the matrix uses: the expired one is only expired, the forged one only forged', async () => {
    const valid = jwt(
      { ...JSON.parse(Buffer.from(admin.token.split('.')[1], 'base64url').toString()), exp: Math.floor(Date.now() / 1000) + 600 },
      secret,
    );
    await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${valid}`).expect(200);
  });

  async function outcomeOf(route: string, identity: Identity): Promise<{ status: number; outcome: Outcome | number }> {
    const { method, path, body } = requestFor(route, { adminId: admin.user.id });
    let call = request(app.url)[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path).set(headers[identity]);
    if (body !== undefined) call = call.send(body as object);
    const { status } = await call;
    return { status, outcome: status === 401 || status === 403 ? status : status >= 500 ? status : 'ok' };
  }

  const cases = (table: Record<string, Row>) =>
    Object.entries(table).flatMap(([route, row]) => IDENTITIES.map((identity) => [route, identity, row[identity]] as const));

  // Before the table: the table's pushes with made-up tokens spend this address's allowance of unknown push tokens.
  describe('the test check and pushes, with real bodies', () => {
    /** What each caller gets for a test check of Vigil's own listener, and for a push with a real and a made-up token. */
    const EXPECTED: Record<Identity, { test: number; push: number; unknownPush: number }> = {
      anonymous: { test: 401, push: 200, unknownPush: 404 },
      user: { test: 400, push: 200, unknownPush: 404 },
      admin: { test: 400, push: 200, unknownPush: 404 },
      forged: { test: 401, push: 200, unknownPush: 404 },
      expired: { test: 401, push: 200, unknownPush: 404 },
      wall: { test: 401, push: 200, unknownPush: 404 },
      agent: { test: 401, push: 200, unknownPush: 404 },
      viewer: { test: 403, push: 200, unknownPush: 404 },
      readKey: { test: 403, push: 200, unknownPush: 404 },
      writeKey: { test: 400, push: 200, unknownPush: 404 },
      metricsKey: { test: 403, push: 200, unknownPush: 404 },
    };
    let pushToken: string;

    beforeAll(async () => {
      const { body } = await request(app.url).post('/api/monitors').set(admin.auth).send({ name: 'matrix push', type: 'push' }).expect(201);
      pushToken = body.monitor.push_token;
    });

    it.each(IDENTITIES)('answers %s as the table says, and a push token is no bearer token', async (identity) => {
      const port = Number(new URL(app.url).port);
      const test = await request(app.url)
        .post('/api/monitors/test')
        .set(headers[identity])
        .send({ name: 'matrix', type: 'tcp', hostname: '127.0.0.1', port });
      const push = await request(app.url).get(`/api/push/${pushToken}?status=up`).set(headers[identity]);
      const unknownPush = await request(app.url)
        .get(`/api/push/${'x'.repeat(32)}?status=up`)
        .set(headers[identity]);
      expect({ identity, test: test.status, push: push.status, unknownPush: unknownPush.status }).toEqual({
        identity,
        ...EXPECTED[identity],
      });
      if (test.status === 400) expect(test.body.code).toBe('monitors.targetOwnService');
      await request(app.url).get('/api/monitors').set('Authorization', `Bearer ${pushToken}`).expect(401);
    });
  });

  // Destructive-looking routes only ever target throwaway ids, so the order of the cases does not matter.
  it.each(cases(MATRIX))('%s as %s → %s', async (route, identity, expected) => {
    const { status, outcome } = await outcomeOf(route, identity);
    expect({ route, identity, status, outcome }).toEqual({ route, identity, status, outcome: expected });
  });

  it.each(cases(OUTSIDE_OPENAPI))('%s (outside OpenAPI) as %s → %s', async (route, identity, expected) => {
    const { outcome } = await outcomeOf(route, identity);
    expect(outcome).toBe(expected);
  });

  describe('socket.io (outside OpenAPI)', () => {
    type Join = 'ok' | 'refused' | 'no connection';
    /** Which rooms each caller may join on the browsers' namespace. */
    const ROOMS: Record<Identity, Record<'status' | 'monitors' | 'agents' | 'wall', Join>> = {
      anonymous: { status: 'ok', monitors: 'refused', agents: 'refused', wall: 'refused' },
      user: { status: 'ok', monitors: 'ok', agents: 'ok', wall: 'ok' },
      admin: { status: 'ok', monitors: 'ok', agents: 'ok', wall: 'ok' },
      forged: { status: 'no connection', monitors: 'no connection', agents: 'no connection', wall: 'no connection' },
      expired: { status: 'no connection', monitors: 'no connection', agents: 'no connection', wall: 'no connection' },
      wall: { status: 'ok', monitors: 'refused', agents: 'refused', wall: 'ok' },
      agent: { status: 'no connection', monitors: 'no connection', agents: 'no connection', wall: 'no connection' },
      viewer: { status: 'ok', monitors: 'ok', agents: 'ok', wall: 'ok' },
      // API keys are for scripts: no key opens a socket.
      readKey: { status: 'no connection', monitors: 'no connection', agents: 'no connection', wall: 'no connection' },
      writeKey: { status: 'no connection', monitors: 'no connection', agents: 'no connection', wall: 'no connection' },
      metricsKey: { status: 'no connection', monitors: 'no connection', agents: 'no connection', wall: 'no connection' },
    };
    /** Who may open the agents' namespace: only an agent credential. */
    const AGENT_NAMESPACE_ACCESS: Record<Identity, boolean> = {
      anonymous: false,
      user: false,
      admin: false,
      forged: false,
      expired: false,
      wall: false,
      agent: true,
      viewer: false,
      readKey: false,
      writeKey: false,
      metricsKey: false,
    };

    function browserAuth(identity: Identity): Record<string, string> {
      if (identity === 'anonymous') return {};
      if (identity === 'wall') return { displayKey };
      return { token: headers[identity].Authorization.slice('Bearer '.length) };
    }

    function connect(url: string, auth: Record<string, unknown>): Promise<Socket | null> {
      const socket = io(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
      sockets.push(socket);
      return new Promise((resolve) => {
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', () => resolve(null));
      });
    }

    it.each(IDENTITIES)('browser namespace as %s', async (identity) => {
      const socket = await connect(app.url, browserAuth(identity));
      const joined: Record<string, Join> = {};
      for (const room of ['status', 'monitors', 'agents', 'wall'] as const) {
        if (!socket) joined[room] = 'no connection';
        else joined[room] = (await socket.timeout(5000).emitWithAck('subscribe', room)).ok ? 'ok' : 'refused';
      }
      socket?.disconnect();
      expect(joined).toEqual(ROOMS[identity]);
    });

    it.each(IDENTITIES)('agent namespace as %s', async (identity) => {
      const presented =
        identity === 'agent' ? credential : identity === 'wall' ? displayKey : headers[identity].Authorization?.slice('Bearer '.length);
      const socket = await connect(`${app.url}${AGENT_NAMESPACE}`, {
        protocol: AGENT_PROTOCOL_VERSION,
        ...(presented ? { credential: presented } : {}),
      });
      socket?.disconnect();
      expect(socket !== null).toBe(AGENT_NAMESPACE_ACCESS[identity]);
    });
  });
});

import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { agentHello, enrollAgent } from '../factories/agents';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, FakeNotifier } from '../support/fake-notifier';
import { anyBody, objectBody, SchemaProperty, validValue } from '../support/fuzz-bodies';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Property-based fuzzing of every POST/PUT/PATCH route the server's OpenAPI document lists (so a new route is fuzzed
 * without touching this file), anonymous, as a user and as an admin: no answer may be a 5xx, every 4xx carries
 * `{ success: false, message }`, and the server stays responsive. `FUZZ_SEED` replays a reported run; `FUZZ_REPORT=1`
 * prints how many answers of each status every route gave (to see how deep the bodies get).
 */
const IDENTITIES = ['admin', 'user', 'anonymous'] as const;
const CONCURRENCY = 4;
const MIN_BODIES = 10_000;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;

interface Route {
  method: 'post' | 'put' | 'patch';
  path: string;
  schema: { properties?: Record<string, SchemaProperty> } | null;
  /** Declared public in the document (no security requirement): fuzzed anonymously only. */
  public: boolean;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

type Identity = (typeof IDENTITIES)[number];

describe('fuzzing every POST/PUT/PATCH route', () => {
  let app: TestApp;
  let notifier: FakeNotifier;
  let root: Session;
  /** An account no fuzzed request targets by id: its role must survive every polluting key. */
  let witness: Session;
  const current: Partial<Record<'user' | 'admin', Session>> = {};
  const ids: Record<string, number[]> = {};
  const routes: Route[] = [];
  // An idle pooled socket is dropped after 2 s, before the server's 5 s keep-alive timeout closes it: on a loaded
  // machine a socket reused just as the server closes it answers "socket hang up", a race of the client's making.
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2, timeout: 2_000 });
  let sent = 0;
  const statuses = new Map<string, number>();

  beforeAll(async () => {
    notifier = await startFakeNotifier();
    app = await startTestApp({ env: { TELEGRAM_API_URL: notifier.url, RESEND_API_URL: notifier.url, NOTIFICATION_TIMEOUT_SECONDS: '2' } });
    root = await registerFirstAdmin(app.url);
    const bystander = await createUser(app.url, root, 'user');
    witness = await createUser(app.url, root, 'user');
    const monitor = await request(app.url)
      .post('/api/monitors')
      .set(root.auth)
      .send({ name: 'Fuzz target', url: `${notifier.url}/hook/monitor`, active: false })
      .expect(201);
    const channel = await request(app.url)
      .post('/api/notifications/channels')
      .set(root.auth)
      .send({ name: 'Fuzz hook', type: 'webhook', enabled: true, language: 'en-US', config: { url: `${notifier.url}/hook/channel` } })
      .expect(201);
    const { agentId } = await enrollAgent(app.url, root, 'fuzz-host');
    const incident = await request(app.url)
      .post('/api/incidents')
      .set(root.auth)
      .send({ title: 'Fuzz incident', impact: 'minor', message: 'Looking', monitors: [monitor.body.monitor.id], pages: ['default'] })
      .expect(201);
    ids.users = [bystander.user.id];
    ids.monitors = [monitor.body.monitor.id];
    ids.channels = [channel.body.data.id];
    ids.agents = [agentId];
    ids.incidents = [incident.body.incident.id];

    const { body: document } = await request(app.url).get('/api/docs-json').expect(200);
    type Operation = { security?: unknown[]; requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } };
    for (const [path, operations] of Object.entries<Record<string, Operation>>(document.paths)) {
      for (const method of ['post', 'put', 'patch'] as const) {
        const operation = operations[method];
        if (!operation) continue;
        const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref;
        const schema = ref ? document.components.schemas[ref.split('/').pop()!] : null;
        routes.push({ method, path, schema, public: (operation.security ?? []).length === 0 });
      }
    }
  });
  afterAll(async () => {
    agent.destroy();
    await app?.destroy();
    await notifier?.close();
  });

  /**
   * A working session for the identity. Fuzzed updates may lock the fuzzing accounts out (demoted, renamed, password
   * changed): then root, which no fuzzed request targets, creates a fresh account. Logins only fail in the anonymous
   * run, which comes last, so the address's login limit never blocks this.
   */
  async function sessionFor(identity: 'user' | 'admin'): Promise<Session> {
    const session = current[identity];
    if (session) {
      const me = await request(app.url).get('/api/auth/me').set(session.auth);
      if (me.status === 200 && me.body.user?.role === identity) return session;
      if (current[identity] !== session) return current[identity]!;
    }
    const fresh = await createUser(app.url, root, identity);
    current[identity] = fresh;
    return fresh;
  }

  /** Existing ids for the `{id}` of a path (by the segment before it), plus garbage; never root's own account. */
  function idArbitrary(path: string): fc.Arbitrary<string> {
    const collection = /\/(\w+)\/\{id\}/.exec(path)?.[1] ?? '';
    const own = collection === 'users' ? [current.admin, current.user].filter(Boolean).map((session) => session!.user.id) : [];
    const existing = (ids[collection] ?? []).map(String);
    const garbage = fc.constantFrom(
      '0',
      '-1',
      'abc',
      '1e3',
      '1.5',
      '999999999',
      '2147483648',
      '99999999999999999999',
      '%00',
      '%ED%A0%80',
      '%F0%9F%98%80',
      '%20',
    );
    return fc.oneof(
      { weight: existing.length ? 4 : 0, arbitrary: existing.length ? fc.constantFrom(...existing) : garbage },
      { weight: own.length ? 1 : 0, arbitrary: own.length ? fc.constantFrom(...own.map(String)) : garbage },
      { weight: 1, arbitrary: garbage },
    );
  }

  /**
   * Values that let a body reach past the first check: our own loopback fake for every address (spelled the ways
   * that reach loopback, which users' monitors and test checks are refused), this server's own port, real ids.
   */
  function examples(): Record<string, unknown> {
    const { port } = new URL(notifier.url);
    const own = new URL(app.url).port;
    const hosts = ['127.0.0.1', 'localhost', '0.0.0.0', '[::]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '169.254.169.254'];
    return {
      url: fc.oneof(
        fc.constant(`${notifier.url}/hook/fuzz`),
        fc.constantFrom(...hosts).map((host) => `http://${host}:${port}/hook/fuzz`),
        fc.constantFrom(...hosts).map((host) => `http://${host}:${own}/api/health`),
      ),
      // Hosts every role is refused (metadata) or that resolve nowhere: a reachable one makes ping checks take seconds.
      hostname: fc.constantFrom('169.254.169.254', 'fd00:ec2::254', 'no-such-host.invalid'),
      // A closed port (refused at once) or this server's own (refused before connecting): a socket type's check of
      // the HTTP fake would wait out its timeout, and check-now waits for its check.
      port: fc.constantFrom(9, Number(own)),
      logoUrl: `${notifier.url}/logo.png`,
      email: 'fuzz@example.test',
      username: 'fuzz_user',
      password: 'correct-horse-1',
      newPassword: 'correct-horse-2',
      monitors: ids.monitors,
      agents: ids.agents,
      interval: 60,
      timeout: 10,
      expectedStatus: 200,
      retries: 1,
      retryInterval: 20,
      body: null,
    };
  }

  /** Field shapes for bodies a service checks by hand (no schema in the document); other routes fall back to these. */
  function handCheckedFields(): Record<string, fc.Arbitrary<unknown>> {
    const hook = fc.constantFrom(`${notifier.url}/hook/a`, `${notifier.url}/hook/b`, 'http://127.0.0.1:9/closed');
    return {
      name: fc.constantFrom('Ops', 'Team', 'fuzz-host'),
      type: fc.constantFrom('webhook', 'telegram', 'slack', 'dingtalk', 'wecom', 'feishu', 'resend'),
      enabled: fc.boolean(),
      language: fc.constantFrom('en-US', 'zh-CN'),
      config: fc.record(
        {
          url: hook,
          headers: fc.constantFrom({}, { 'X-Key': 'v' }, { Authorization: '••••••••' }),
          bot_token: fc.constant('123456:ABCdef'),
          chat_id: fc.constant('42'),
        },
        { requiredKeys: [] },
      ),
      target_type: fc.constantFrom('global-monitor', 'global-agent', 'monitor', 'agent'),
      target_id: fc.constantFrom(...ids.monitors, ...ids.agents),
      channels: fc.constantFrom(ids.channels, JSON.stringify(ids.channels), []),
      cpu_threshold: fc.integer({ min: 0, max: 100 }),
      token: fc.constantFrom('not-a-token', 'a'.repeat(64)),
      hello: fc.constant(agentHello('fuzz-host')),
      hostname: fc.constantFrom('fuzz-host', 'other-host'),
      ip_addresses: fc.constant(['192.0.2.10']),
      timestamp: fc.constant(new Date().toISOString()),
      cpu: fc.constant({ usage: 12.5, cores: 2 }),
      memory: fc.constant({ total: 8e9, used: 2e9 }),
      disks: fc.constant([{ mount_point: '/', total: 1e11, used: 4e10 }]),
    };
  }

  function bodyArbitrary(route: Route) {
    const properties = route.schema?.properties;
    const fields = properties
      ? Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, validValue(name, schema, examples())]))
      : handCheckedFields();
    return anyBody(objectBody(fields, Object.keys(handCheckedFields())));
  }

  function send(method: string, path: string, body: { text: string; contentType: string }, auth?: Session): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'Content-Type': body.contentType };
      if (auth) headers.Authorization = auth.auth.Authorization;
      const req = httpRequest(`${app.url}${path}`, { method: method.toUpperCase(), agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path} did not answer within 20 s`)));
      req.on('error', reject);
      req.end(body.text);
    });
  }

  /** The contract every answer keeps, whatever was sent. */
  function checkAnswer(route: Route, answer: Answer): void {
    // A channel test relays the provider's refusal as 502 (documented); every other 5xx is our failure.
    const upstream = answer.status === 502 && route.path.endsWith('/test');
    if (answer.status >= 500 && !upstream) throw new Error(`${answer.status} ${answer.text.slice(0, 300)}`);
    if (answer.status < 400) return;
    if (!/json/.test(answer.contentType)) throw new Error(`${answer.status} answered as ${answer.contentType}`);
    const body = JSON.parse(answer.text) as { success?: unknown; message?: unknown };
    if (body.success !== false || typeof body.message !== 'string' || body.message.trim() === '') {
      throw new Error(`${answer.status} without {success:false,message}: ${answer.text.slice(0, 300)}`);
    }
  }

  async function fuzz(route: Route, identity: Identity, seed: number): Promise<void> {
    if (identity !== 'anonymous') await sessionFor(identity);
    const path = route.path.includes('{id}') ? idArbitrary(route.path) : fc.constant('');
    await fc.assert(
      fc.asyncProperty(bodyArbitrary(route), path, async (body, id) => {
        const target = route.path.replace('{id}', id);
        let answer = await send(route.method, target, body, identity === 'anonymous' ? undefined : current[identity]);
        sent += 1;
        if (identity !== 'anonymous' && (answer.status === 401 || answer.status === 403)) {
          // Another fuzzed request may have just locked this session out: judge the body with a working one.
          const used = current[identity];
          if ((await sessionFor(identity)) !== used) {
            answer = await send(route.method, target, body, current[identity]);
            sent += 1;
          }
        }
        const key = `${identity} ${route.method} ${route.path} ${answer.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        checkAnswer(route, answer);
      }),
      { numRuns: Math.ceil(MIN_BODIES / bodiesPerRun()) + 5, seed },
    );
  }

  /** Route and identity pairs fuzzed: public routes (login, register) anonymously only. */
  const bodiesPerRun = () => routes.length * IDENTITIES.length - routes.filter((route) => route.public).length * (IDENTITIES.length - 1);

  async function fuzzAll(identity: Identity): Promise<void> {
    const queue = routes
      .filter((route) => identity === 'anonymous' || !route.public)
      .map(
        (route, index) => () =>
          fuzz(route, identity, SEED + index).catch((error: Error) => {
            throw new Error(
              `${identity} ${route.method.toUpperCase()} ${route.path}: ${(error.cause as Error | undefined)?.message ?? ''}\n${error.message}`,
            );
          }),
      );
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let task = queue.shift(); task; task = queue.shift()) {
          await task().catch((error: Error) => failures.push(error.message.slice(0, 6_000)));
        }
      }),
    );
    expect(failures).toEqual([]);
  }

  it('finds POST/PUT/PATCH routes in the OpenAPI document, the agent and channel routes among them', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining([
        'post /api/auth/login',
        'put /api/users/{id}',
        'post /api/agents/status',
        'post /api/notifications/channels/{id}/test',
        'post /api/status/config',
      ]),
    );
  });

  // Signed-in identities first: anonymous fuzzed logins can exhaust the address's login allowance.
  it.each<Identity>([...IDENTITIES])(
    'answers every fuzzed body as %s without a 5xx and with {success:false,message} on every 4xx',
    async (identity) => {
      await fuzzAll(identity);
    },
    180_000,
  );

  it(`sent at least ${MIN_BODIES} bodies and the server still answers /api/health promptly`, async () => {
    expect(sent).toBeGreaterThanOrEqual(MIN_BODIES);
    if (process.env.FUZZ_REPORT)
      console.log(
        [...statuses]
          .sort()
          .map(([k, n]) => `${k}: ${n}`)
          .join('\n'),
      );
    for (let probe = 0; probe < 3; probe += 1) {
      const started = performance.now();
      await request(app.url).get('/api/health').expect(200);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    // Polluting keys (`__proto__`, `constructor`) made nobody an admin: the witness is still a plain user.
    expect((await request(app.url).get('/api/auth/me').set(witness.auth).expect(200)).body.user.role).toBe('user');
    await request(app.url).get(`/api/users/${witness.user.id}`).set(root.auth).expect(200);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import {
  CHANNEL_TYPES,
  channelSpec,
  isSecretField,
  SECRET_MASK as MASK,
  validateChannelConfig,
  type ChannelFieldSpec,
  type ChannelType,
  type ClientToServerEvents,
  type MonitorDto,
  type MonitorsChangedEvent,
  type ServerToClientEvents,
} from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { freePort } from '../support/ports';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/** Issue 14, findings 3, 6 and 9: stored secrets go only where they were saved for, no read-back, masked reads. */

interface Hit {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback HTTP server that records every request and answers with `handler`. */
interface Recorder {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

async function startRecorder(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Recorder> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      hits.push({ path: req.url ?? '/', headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const HOOK_SECRET = 'Bearer hook-secret-3f9a1c';
const SIGNING_SECRET = 'SECd1ngta1k5ecret0123456789abcdef';
/** 500 characters that look like what an internal service might hold. */
const INTERNAL_BODY =
  `{"db_password":"pg-Sup3rSecret","aws_secret_access_key":"AKIA${'Z'.repeat(40)}","note":"${'internal '.repeat(60)}"}`.slice(0, 500);

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Values for channel fields, tried in order until one passes the field's own rule (`sampleConfig`): a new type whose
 * field none of them fits fails the finding 3 sweep with the field's name, to be given a value here.
 */
const FIELD_SAMPLES = [
  'vigil_secret_0123456789',
  'smtp.example.com',
  'ops@example.com',
  'Vigil <alerts@example.com>',
  'R0UT1NGk3yR0UT1NGk3yR0UT1NGk3y12',
  'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5',
  '123456789:AAFsecretBotToken0123456789abcdef',
  'U0123456789abcdef0123456789abcdef',
  '!room:example.org',
  '+4915112345678',
];
/** Where a type's secrets go when that is not its URL fields: the fields naming its server. */
const SERVER_FIELDS: Partial<Record<ChannelType, (server: URL) => Record<string, unknown>>> = {
  smtp: (server) => ({ host: server.hostname, port: Number(server.port) }),
};

const hasSecret = (type: ChannelType) => channelSpec(type).fields.some(isSecretField);
/** Whether the user says where the type's secrets go (a URL field, a server), rather than its fixed `<TYPE>_API_URL`. */
const hasUserDestination = (type: ChannelType) =>
  channelSpec(type).fields.some((field) => field.kind === 'url') || SERVER_FIELDS[type] !== undefined;
/** The secrets that can come back masked while the destination changes: all but those that are the destination's URL. */
const maskableSecrets = (type: ChannelType) => channelSpec(type).fields.filter((field) => isSecretField(field) && field.kind !== 'url');

/** A valid config of `type` (every field filled) whose destination is `server`. */
function sampleConfig(type: ChannelType, server: string): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of channelSpec(type).fields) config[field.name] = sampleValue(type, field, server);
  Object.assign(config, SERVER_FIELDS[type]?.(new URL(server)));
  const valid = validateChannelConfig(type, config);
  if (!valid.ok) throw new Error(`No sample config for ${type}: ${valid.field} is ${valid.code}; add a value to FIELD_SAMPLES`);
  return config;
}

function sampleValue(type: ChannelType, field: ChannelFieldSpec, server: string): unknown {
  const fits = (value: string) => value.length >= (field.min ?? 1) && value.length <= (field.max ?? 500) && (field.valid?.(value) ?? true);
  switch (field.kind) {
    case 'url':
      return `${server}/hook/${type}-${field.name}-0123456789abcdef`;
    case 'map':
      return { Authorization: 'Bearer map-secret-0123456789' };
    case 'list':
      return [FIELD_SAMPLES.find(fits)];
    case 'number':
      return field.default ?? field.min ?? 1;
    case 'boolean':
      return field.default ?? false;
    case 'select':
      return field.default ?? field.options?.[0];
    default:
      return FIELD_SAMPLES.find(fits);
  }
}

/** `config` with each of `fields` sent back as the mask, as an edit form reads it. */
function masked(config: Record<string, unknown>, fields: ChannelFieldSpec[]): Record<string, unknown> {
  const result = { ...config };
  for (const field of fields) {
    const value = result[field.name];
    result[field.name] =
      typeof value === 'object' && value !== null ? Object.fromEntries(Object.keys(value).map((key) => [key, MASK])) : MASK;
  }
  return result;
}

/**
 * For a type whose secrets cannot move with the destination (a fixed `<TYPE>_API_URL`, or a URL that is itself the
 * secret): the type the attack retypes it as. Preferably one with a user destination and a secret of the same name
 * (a Pushover `appToken` retyped as a Gotify one), which would carry the stored value elsewhere if masks survived it.
 */
function retypedAs(type: ChannelType): ChannelType {
  const names = new Set(
    channelSpec(type)
      .fields.filter(isSecretField)
      .map((field) => field.name),
  );
  const candidates = CHANNEL_TYPES.filter((other) => other !== type && hasUserDestination(other));
  return candidates.find((other) => channelSpec(other).fields.some((field) => isSecretField(field) && names.has(field.name))) ?? 'webhook';
}

describe('hardening: stored secrets, read-back and masked reads (issue 14: 3, 6, 9)', () => {
  let app: TestApp;
  let member: Session;
  let fake: FakeNotifier;
  let attacker: FakeNotifier;
  let internal: Recorder;
  let denied: Recorder;
  let redirector: Recorder;
  const sockets: BrowserSocket[] = [];

  beforeAll(async () => {
    [fake, attacker] = await Promise.all([startFakeNotifier(), startFakeNotifier()]);
    internal = await startRecorder('127.0.0.1', (req, res) => {
      const status = req.url?.startsWith('/ok') ? 200 : 500;
      res.writeHead(status, { 'content-type': 'application/json' }).end(INTERNAL_BODY);
    });
    // 127.0.0.0/8 is all loopback on Linux: this one is what OUTBOUND_DENY covers.
    denied = await startRecorder('127.0.0.2', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(INTERNAL_BODY));
    redirector = await startRecorder('127.0.0.1', (_req, res) => res.writeHead(302, { location: `${denied.url}/after-redirect` }).end());
    app = await startTestApp({
      env: { ...USERS_REACH_LOOPBACK, TELEGRAM_API_URL: fake.url, RESEND_API_URL: fake.url, OUTBOUND_DENY: '127.0.0.2/32, fd00::/8' },
    });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  beforeEach(() => {
    fake.clear();
    attacker.clear();
    for (const recorder of [internal, denied, redirector]) recorder.hits.splice(0);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([fake?.close(), attacker?.close(), internal?.close(), denied?.close(), redirector?.close()]);
  });

  const api = () => request(app.url);

  async function channel(type: string, config: Record<string, unknown>): Promise<number> {
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(member.auth)
      .send({ name: `${type} ${Date.now()}`, type, config })
      .expect(201);
    return body.data.id;
  }

  async function storedConfig(id: number): Promise<Record<string, unknown>> {
    const { body } = await api().get('/api/notifications').set(member.auth).expect(200);
    return JSON.parse(body.data.channels.find((c: { id: number }) => c.id === id).config);
  }

  /** Everything the attacker's fake received, as one string. */
  const loot = () => JSON.stringify(attacker.received);

  describe('finding 3: a masked secret is only re-used for the saved destination', () => {
    it('refuses to send stored webhook headers to another URL, on test and on save', async () => {
      const id = await channel('webhook', { url: `${fake.url}/hook/saved`, headers: { Authorization: HOOK_SECRET } });
      const attack = { name: 'steal', type: 'webhook', config: { url: `${attacker.url}/hook/steal`, headers: { Authorization: MASK } } };

      const tested = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).send(attack).expect(400);
      expect(tested.body).toEqual({
        success: false,
        message: 'Re-enter the header values: saved ones are only sent to the URL they were saved with',
        code: 'notifications.headersReenter',
        field: 'headers',
      });
      const saved = await api().put(`/api/notifications/channels/${id}`).set(member.auth).send(attack).expect(400);
      expect(saved.body.code).toBe('notifications.headersReenter');

      expect(attacker.received).toHaveLength(0);
      expect(loot()).not.toContain('hook-secret');
      expect(await storedConfig(id)).toEqual({ url: `${fake.url}/hook/saved`, headers: { Authorization: MASK } });
    });

    it('refuses to send the stored DingTalk signing secret with another URL, on test and on save', async () => {
      const id = await channel('dingtalk', { webhookUrl: `${fake.url}/hook/robot?access_token=tok-0123456789`, secret: SIGNING_SECRET });
      const attack = { name: 'steal', type: 'dingtalk', config: { webhookUrl: `${attacker.url}/hook/robot?access_token=x`, secret: MASK } };

      const tested = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).send(attack).expect(400);
      expect(tested.body).toMatchObject({
        success: false,
        code: 'notifications.secretReenter',
        field: 'secret',
        message: expect.stringMatching(/^Re-enter the signing secret/),
      });
      await api().put(`/api/notifications/channels/${id}`).set(member.auth).send(attack).expect(400);

      expect(attacker.received).toHaveLength(0);
      expect(await storedConfig(id)).toEqual({ webhookUrl: MASK, secret: MASK });
    });

    it('refuses credentials masked in a webhook URL on another host', async () => {
      const url = new URL(`${fake.url}/hook/creds`);
      url.username = 'ops';
      url.password = 'pw-0123456789';
      const id = await channel('webhook', { url: url.href });
      const attack = { name: 'steal', type: 'webhook', config: { url: `http://${MASK}@${new URL(attacker.url).host}/hook/creds` } };

      const tested = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).send(attack).expect(400);
      expect(tested.body.code).toBe('notifications.urlCredentialsReenter');
      expect(attacker.received).toHaveLength(0);
    });

    it('refuses a mask for a channel not saved, or saved as another type', async () => {
      const unsaved = await api()
        .post('/api/notifications/channels/test')
        .set(member.auth)
        .send({ name: 'draft', type: 'webhook', config: { url: `${attacker.url}/hook/draft`, headers: { Authorization: MASK } } })
        .expect(400);
      expect(unsaved.body.code).toBe('notifications.headersReenter');
      const slack = await channel('slack', { webhookUrl: `${fake.url}/hook/slack-0123456789` });
      const retyped = await api()
        .post(`/api/notifications/channels/${slack}/test`)
        .set(member.auth)
        .send({ name: 'retyped', type: 'dingtalk', config: { webhookUrl: MASK } })
        .expect(400);
      expect(retyped.body.code).toBe('notifications.webhookUrlReenter');
      expect(attacker.received).toHaveLength(0);
    });

    it('still tests and saves the saved destination with the masks sent back', async () => {
      const hook = await channel('webhook', { url: `${fake.url}/hook/kept`, headers: { Authorization: HOOK_SECRET } });
      const config = await storedConfig(hook);
      const edit = {
        name: 'kept',
        type: 'webhook',
        config: { ...config, headers: { ...(config.headers as Record<string, string>), 'X-Team': 'ops' } },
      };

      const tested = await api().post(`/api/notifications/channels/${hook}/test`).set(member.auth).send(edit).expect(200);
      expect(tested.body).toEqual({ success: true, message: 'Test message sent', data: { status: 200, detail: 'OK' } });
      await api().put(`/api/notifications/channels/${hook}`).set(member.auth).send(edit).expect(200);
      await api().post(`/api/notifications/channels/${hook}/test`).set(member.auth).expect(200);
      const sent = fake.of('webhook', '/hook/kept');
      expect(sent).toHaveLength(2);
      for (const received of sent) expect(received.headers).toMatchObject({ authorization: HOOK_SECRET, 'x-team': 'ops' });

      const robot = await channel('dingtalk', {
        webhookUrl: `${fake.url}/hook/robot-kept?access_token=tok-0123456789`,
        secret: SIGNING_SECRET,
      });
      await api()
        .post(`/api/notifications/channels/${robot}/test`)
        .set(member.auth)
        .send({ name: 'robot', type: 'dingtalk', config: { webhookUrl: MASK, secret: MASK } })
        .expect(200);
      const [signed] = fake.of('webhook').filter((r) => r.path.startsWith('/hook/robot-kept'));
      expect(new URL(signed.path, fake.url).searchParams.get('sign')).toEqual(expect.any(String));
    });
  });

  describe('finding 3, every channel type: a stored secret goes only to the destination it was saved with', () => {
    const withSecrets = CHANNEL_TYPES.filter(hasSecret);
    const movable = withSecrets.filter((type) => hasUserDestination(type) && maskableSecrets(type).length > 0);
    const fixed = withSecrets.filter((type) => !movable.includes(type));

    /** Saving with the masks and testing with them are both refused, naming the field; the attacker gets nothing. */
    async function expectRefused(id: number, attack: { type: ChannelType; config: Record<string, unknown> }, field: ChannelFieldSpec) {
      const body = { name: 'moved', ...attack };
      const expected = { success: false, field: field.name, code: field.codes?.reenter ?? 'notifications.fieldReenter' };
      const tested = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).send(body);
      expect({ status: tested.status, ...tested.body }).toMatchObject({ status: 400, ...expected });
      const saved = await api().put(`/api/notifications/channels/${id}`).set(member.auth).send(body);
      expect({ status: saved.status, ...saved.body }).toMatchObject({ status: 400, ...expected });
      expect(attacker.received).toHaveLength(0);
    }

    it.each(movable)('%s: refuses its masked secrets with another destination', async (type) => {
      const id = await channel(type, sampleConfig(type, fake.url));
      const secrets = maskableSecrets(type);

      await expectRefused(id, { type, config: masked(sampleConfig(type, attacker.url), secrets) }, secrets[0]);
    });

    it.each(fixed)('%s: refuses its masked secrets under another type', async (type) => {
      const id = await channel(type, sampleConfig(type, fake.url));
      const other = retypedAs(type);
      const secrets = channelSpec(other).fields.filter(isSecretField);

      await expectRefused(id, { type: other, config: masked(sampleConfig(other, attacker.url), secrets) }, secrets[0]);
    });

    it('knows where every type’s secrets go', () => {
      for (const type of withSecrets)
        expect([type, hasUserDestination(type) || channelSpec(type).apiUrl !== undefined]).toEqual([type, true]);
    });
  });

  describe('finding 6: no read-back, and OUTBOUND_DENY', () => {
    const unsavedTest = (url: string) =>
      api().post('/api/notifications/channels/test').set(member.auth).send({ name: 'probe', type: 'webhook', config: { url } });

    it('answers a refused test with the status and reason phrase, never the body', async () => {
      const { body } = await unsavedTest(`${internal.url}/admin`).expect(502);
      expect(body).toEqual({
        success: false,
        message: 'Test message failed: HTTP 500 Internal Server Error',
        data: { status: 500, detail: 'HTTP 500 Internal Server Error' },
      });
      const history = await api().get('/api/notifications/history?target_kind=test').set(member.auth).expect(200);
      for (const text of [JSON.stringify(body), JSON.stringify(history.body)]) {
        expect(text).not.toContain('pg-Sup3rSecret');
        expect(text).not.toContain('internal internal');
      }
    });

    it('answers an accepted test with the status and reason phrase, never the body', async () => {
      const { body } = await unsavedTest(`${internal.url}/ok`).expect(200);
      expect(body).toEqual({ success: true, message: 'Test message sent', data: { status: 200, detail: 'OK' } });
    });

    it('refuses a channel test to a denied address, also behind a redirect', async () => {
      const direct = await unsavedTest(`${denied.url}/hook`).expect(502);
      expect(direct.body).toMatchObject({
        success: false,
        message: 'Test message failed: Address 127.0.0.2 is refused by OUTBOUND_DENY',
        data: { status: null },
      });
      // Deliveries follow no redirect: the hop to the denied address is never made.
      const redirected = await unsavedTest(`${redirector.url}/hook`).expect(502);
      expect(redirected.body.message).toBe('Test message failed: HTTP 302 Found');
      expect(redirector.hits).toHaveLength(1);
      expect(denied.hits).toHaveLength(0);
    });

    it('stops the server at boot with one line naming a bad OUTBOUND_DENY entry', async () => {
      const port = String(await freePort());
      const dataDir = mkdtempSync(join(tmpdir(), 'vigil-deny-'));
      try {
        const run = spawnSync(process.execPath, [join(__dirname, '../../server/dist/main.js')], {
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            PORT: port,
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            OUTBOUND_DENY: '10.0.0.0/8, 10.0.0.0/33',
          },
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(run.status).toBe(1);
        expect(run.stderr.trim()).toBe(
          'Vigil cannot start: OUTBOUND_DENY must be a list of IPv4 or IPv6 CIDRs separated by commas: "10.0.0.0/33" is not an IPv4 or IPv6 CIDR',
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('refuses a monitor of a denied address on save, and its check behind a redirect from an allowed one', async () => {
      const refused = await api()
        .post('/api/monitors')
        .set(member.auth)
        .send({ name: 'deny', url: `${denied.url}/health`, interval: 3600, retries: 0 })
        .expect(400);
      expect(refused.body).toMatchObject({ success: false, code: 'monitors.targetDenied' });
      const { body } = await api()
        .post('/api/monitors')
        .set(member.auth)
        .send({ name: 'deny behind a redirect', url: `${redirector.url}/health`, interval: 3600, retries: 0 })
        .expect(201);
      const { body: checked } = await api().post(`/api/monitors/${body.monitor.id}/check`).set(member.auth).expect(200);
      expect(checked.check).toMatchObject({ status: 'down', status_code: null, error: 'Address 127.0.0.2 is refused by OUTBOUND_DENY' });
      expect(redirector.hits.length).toBeGreaterThan(0);
      expect(denied.hits).toHaveLength(0);
    });
  });

  describe('finding 9: credentials read masked, kept on save', () => {
    it('masks user:pass@ and ?token= in a webhook URL, and keeps them on an edit sending the mask back', async () => {
      const url = new URL(`${fake.url}/hook/embedded?team=ops&token=tok-secret-9a8b7c`);
      url.username = 'ops';
      url.password = 'pw-secret-9a8b7c';
      const id = await channel('webhook', { url: url.href });

      const { body } = await api().get('/api/notifications').set(member.auth).expect(200);
      expect(JSON.stringify(body)).not.toMatch(/secret-9a8b7c/);
      const config = await storedConfig(id);
      expect(config.url).toBe(`http://${MASK}@${url.host}/hook/embedded?team=ops&token=${MASK}`);

      await api().put(`/api/notifications/channels/${id}`).set(member.auth).send({ name: 'renamed', type: 'webhook', config }).expect(200);
      await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(200);
      const [sent] = fake.of('webhook').filter((r) => r.path.startsWith('/hook/embedded'));
      expect(sent.path).toBe('/hook/embedded?team=ops&token=tok-secret-9a8b7c');
      expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('ops:pw-secret-9a8b7c').toString('base64')}`);
    });

    async function subscribedSocket(monitorId: number): Promise<{ socket: BrowserSocket; pushes: MonitorsChangedEvent[] }> {
      const socket: BrowserSocket = io(app.url, {
        auth: { token: member.token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => (socket.once('connect', () => resolve()), socket.once('connect_error', reject)));
      expect(await socket.timeout(5000).emitWithAck('subscribe', `monitor:${monitorId}`)).toEqual({ ok: true });
      const pushes: MonitorsChangedEvent[] = [];
      socket.on('monitors.changed', (event) => pushes.push(event));
      return { socket, pushes };
    }

    it('masks a monitor’s Authorization header and URL token in REST reads and socket pushes, and keeps them on save', async () => {
      const target = `${internal.url}/ok/monitor?token=mon-secret-4d5e6f`;
      const created = await api()
        .post('/api/monitors')
        .set(member.auth)
        .send({
          name: 'private api',
          url: target,
          interval: 3600,
          retries: 0,
          headers: { Authorization: 'Bearer mon-secret-4d5e6f', Accept: 'application/json' },
        })
        .expect(201);
      const id: number = created.body.monitor.id;
      const masked: Partial<MonitorDto> = {
        url: `${internal.url}/ok/monitor?token=${MASK}`,
        headers: { Authorization: MASK, Accept: 'application/json' },
      };
      expect(created.body.monitor).toMatchObject(masked);
      const { pushes } = await subscribedSocket(id);

      const one = await api().get(`/api/monitors/${id}`).set(member.auth).expect(200);
      const list = await api().get('/api/monitors?search=private').set(member.auth).expect(200);
      expect(one.body.monitor).toMatchObject(masked);
      expect(list.body.monitors[0]).toMatchObject(masked);
      for (const text of [JSON.stringify(one.body), JSON.stringify(list.body)]) expect(text).not.toContain('mon-secret');
      // Search must not confirm a masked credential either.
      expect((await api().get('/api/monitors?search=mon-secret').set(member.auth).expect(200)).body.total).toBe(0);

      // An edit sending the masks back (as the edit form does) keeps the stored credentials.
      await api()
        .put(`/api/monitors/${id}`)
        .set(member.auth)
        .send({ name: 'private api renamed', url: one.body.monitor.url, headers: one.body.monitor.headers, method: 'GET', interval: 3600 })
        .expect(200);
      const push = await waitFor(
        async () => pushes.find((p) => p.action === 'updated'),
        (found) => found !== undefined,
      );
      expect(push!.monitor).toMatchObject({ name: 'private api renamed', ...masked });
      expect(JSON.stringify(pushes)).not.toContain('mon-secret');

      internal.hits.splice(0);
      await api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200);
      const [hit] = internal.hits;
      expect(hit.path).toBe('/ok/monitor?token=mon-secret-4d5e6f');
      expect(hit.headers.authorization).toBe('Bearer mon-secret-4d5e6f');
    });

    it('refuses a monitor edit that moves masked credentials to another host', async () => {
      const created = await api()
        .post('/api/monitors')
        .set(member.auth)
        .send({
          name: 'moving',
          url: `${internal.url}/ok/moving?token=mv-secret-1a2b`,
          interval: 3600,
          retries: 0,
          headers: { Authorization: 'Bearer mv-secret-1a2b' },
        })
        .expect(201);
      const monitor = created.body.monitor as MonitorDto;
      const elsewhere = `http://localhost:${new URL(attacker.url).port}/ok/moving`;

      const headers = await api()
        .put(`/api/monitors/${monitor.id}`)
        .set(member.auth)
        .send({ url: elsewhere, headers: monitor.headers })
        .expect(400);
      expect(headers.body).toEqual({
        success: false,
        message: 'Re-enter the hidden header values: saved ones are only sent to the URL they were saved with',
        code: 'monitors.headersReenter',
      });
      // Leaving the headers out of the edit would keep them too: refused the same way.
      const omitted = await api().put(`/api/monitors/${monitor.id}`).set(member.auth).send({ url: elsewhere }).expect(400);
      expect(omitted.body.code).toBe('monitors.headersReenter');
      const token = await api()
        .put(`/api/monitors/${monitor.id}`)
        .set(member.auth)
        .send({ url: `${elsewhere}?token=${MASK}`, headers: {} })
        .expect(400);
      expect(token.body.code).toBe('monitors.urlCredentialsReenter');
      const created2 = await api()
        .post('/api/monitors')
        .set(member.auth)
        .send({ name: 'copy', url: `${internal.url}/ok/moving`, headers: { Authorization: MASK } })
        .expect(400);
      expect(created2.body.code).toBe('monitors.headersReenter');

      const { body } = await api().get(`/api/monitors/${monitor.id}`).set(member.auth).expect(200);
      expect(body.monitor.url).toBe(monitor.url);
      expect(attacker.received).toHaveLength(0);

      // Typing the header again makes the move fine.
      await api()
        .put(`/api/monitors/${monitor.id}`)
        .set(member.auth)
        .send({ url: elsewhere, headers: { Authorization: 'Bearer new-one' } })
        .expect(200);
    });
  });
});

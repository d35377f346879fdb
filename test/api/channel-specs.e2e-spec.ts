import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import request from 'supertest';
import { CHANNEL_TYPES, channelSpec, MESSAGES, SECRET_MASK as M } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { ChannelScenario, startFakeService, type FakeService } from '../support/channel-e2e';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * The channel spec seam (issue 28): every type's config is checked by its CHANNEL_SPECS entry on the server, with
 * a 400 that names the field, and reads mask exactly the fields the spec calls secret.
 */
describe('channel configs checked by their spec', () => {
  let app: TestApp;
  let member: Session;
  let fake: FakeService;
  let target: TargetServer;

  beforeAll(async () => {
    [fake, target] = await Promise.all([startFakeService(), startTargetServer()]);
    app = await startTestApp({ env: { ...USERS_REACH_LOOPBACK, PUBLIC_URL: 'https://vigil.example/', NOTIFICATION_TIMEOUT_SECONDS: '3' } });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([fake?.close(), target?.close()]);
  });

  const create = (body: Record<string, unknown>) => request(app.url).post('/api/notifications/channels').set(member.auth).send(body);

  it.each(CHANNEL_TYPES.filter((type) => channelSpec(type).fields.some((field) => field.required && field.default === undefined)))(
    '%s: an empty config is refused with 400 naming its first required field',
    async (type) => {
      const first = channelSpec(type).fields.find((field) => field.required && field.default === undefined)!;
      const { status, body } = await create({ name: 'x', type, config: {} });
      expect(status).toBe(400);
      expect(body).toMatchObject({ success: false, field: first.name, code: first.codes?.required ?? 'notifications.fieldRequired' });
      // A field's own message names it in words ("Bot Token is required"); a generic one by its path.
      expect(body.message).toBe(
        first.codes?.required ? MESSAGES[first.codes.required] : `config.${first.name}: ${MESSAGES['notifications.fieldRequired']}`,
      );
    },
  );

  it('names every channel type in the refusal of an unknown one', async () => {
    const { status, body } = await create({ name: 'x', type: 'sms', config: {} });
    expect(status).toBe(400);
    expect(body.code).toBe('notifications.channelTypeInvalid');
    expect(body.message).toBe(MESSAGES['notifications.channelTypeInvalid']);
    for (const type of CHANNEL_TYPES) expect(body.message).toContain(type);
  });

  it.each([
    [
      'a number out of range',
      'gotify',
      { serverUrl: 'https://push.example', appToken: 'AbC.123', priority: 11 },
      'priority',
      'notifications.fieldNumber',
    ],
    ['a choice not offered', 'pagerduty', { integrationKey: 'a'.repeat(32), severity: 'fatal' }, 'severity', 'notifications.fieldSelect'],
    [
      'a flag that is not one',
      'smtp',
      { host: 'mail.example', from: 'a@example.com', to: 'b@example.com', tlsInsecure: 'maybe' },
      'tlsInsecure',
      'notifications.fieldBoolean',
    ],
    [
      'a list with a bad item',
      'smtp',
      { host: 'mail.example', from: 'a@example.com', to: 'b@example.com, nope' },
      'to',
      'notifications.recipientInvalid',
    ],
    ['a URL that is not http(s)', 'ntfy', { serverUrl: 'ftp://ntfy.example', topic: 'alerts' }, 'serverUrl', 'notifications.fieldUrl'],
    [
      'a value in the wrong form',
      'matrix',
      { homeserverUrl: 'https://matrix.example', accessToken: 'syt_x', roomId: 'general' },
      'roomId',
      'notifications.fieldInvalid',
    ],
    [
      'a password without a username',
      'smtp',
      { host: 'mail.example', from: 'a@example.com', to: 'b@example.com', password: 'pw' },
      'username',
      'notifications.fieldRequired',
    ],
  ])('refuses %s with 400 naming the field', async (_case, type, config, field, code) => {
    const { status, body } = await create({ name: 'x', type, config });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, field, code });
  });

  it('stores a config normalised by its spec (defaults filled, numbers, flags and lists read from text) and masks its secrets', async () => {
    const { body } = await create({
      name: 'mail',
      type: 'smtp',
      config: {
        host: ' mail.example ',
        port: '2525',
        username: 'ops',
        password: 'hunter22',
        from: 'a@example.com',
        to: 'b@example.com; c@example.com',
        tlsInsecure: 'true',
      },
    }).expect(201);
    const { body: list } = await request(app.url).get('/api/notifications').set(member.auth).expect(200);
    const channel = list.data.channels.find((item: { id: number }) => item.id === body.data.id);
    expect(JSON.parse(channel.config)).toEqual({
      host: 'mail.example',
      port: 2525,
      security: 'starttls',
      username: 'ops',
      password: M,
      from: 'a@example.com',
      to: ['b@example.com', 'c@example.com'],
      tlsInsecure: true,
    });
  });

  it('keeps a token sent back masked while its server stays, and asks for it again when the server changes', async () => {
    const { body } = await create({
      name: 'n',
      type: 'ntfy',
      config: { serverUrl: 'https://ntfy.example', topic: 'a', token: 'tk_secret' },
    }).expect(201);
    const id = body.data.id;
    const edit = (config: Record<string, unknown>) =>
      request(app.url).put(`/api/notifications/channels/${id}`).set(member.auth).send({ name: 'n', type: 'ntfy', config });

    await edit({ serverUrl: 'https://ntfy.example', topic: 'b', token: M }).expect(200);
    const { status, body: refused } = await edit({ serverUrl: 'https://elsewhere.example', topic: 'b', token: M });
    expect(status).toBe(400);
    expect(refused).toMatchObject({ field: 'token', code: 'notifications.fieldReenter' });
  });

  it('links each alert to its monitor page under PUBLIC_URL', async () => {
    const scenario = new ChannelScenario(app.url, member, target);
    const id = await scenario.createChannel('webhook', { url: `${fake.url}/hook` });
    const { monitorId } = await scenario.downAndUp(id, () => fake.to('/hook').length);
    const [down, recovery] = fake.to('/hook').map((req) => req.json);
    expect(down).toMatchObject({ event: 'monitor.down', link: `https://vigil.example/monitors/${monitorId}` });
    expect(recovery).toMatchObject({ event: 'monitor.recovery', link: `https://vigil.example/monitors/${monitorId}` });
  });

  it('keeps a dead destination to its own places: the other channels deliver while it hangs', async () => {
    const hanging = await startHangingServer();
    try {
      const scenario = new ChannelScenario(app.url, member, target);
      // Grouping off: each alert is its own delivery, so the places of each channel are what is measured.
      const ungrouped = { groupWaitSeconds: 0 };
      const dead = await scenario.createChannel('webhook', { url: `${hanging.url}/dead` }, 'en-US', ungrouped);
      const alive = await scenario.createChannel('webhook', { url: `${fake.url}/alive` }, 'en-US', ungrouped);
      await request(app.url)
        .post('/api/notifications/settings')
        .set(member.auth)
        .send({ target_type: 'global-monitor', enabled: true, on_down: true, channels: JSON.stringify([dead, alive]) })
        .expect(200);
      target.respondFor('/storm', 503);
      for (let i = 0; i < 6; i += 1) {
        const { body } = await request(app.url)
          .post('/api/monitors')
          .set(member.auth)
          .send({ name: `storm ${i}`, url: `${target.url}/storm`, interval: 3600, retries: 0 })
          .expect(201);
        await request(app.url).post(`/api/monitors/${body.monitor.id}/check`).set(member.auth).expect(200);
      }
      await waitFor(
        async () => fake.to('/alive').length,
        (count) => count === 6,
      );
      // Every alert reached the live channel while the dead one still holds its first attempts, four at most.
      expect((await scenario.history(dead)).map((item) => item.status)).toEqual(Array(6).fill('pending'));
      expect(hanging.open).toBeLessThanOrEqual(4);
      expect(hanging.open).toBeGreaterThan(0);
    } finally {
      await hanging.close();
    }
  });
});

/** A destination that accepts requests and never answers, counting those it holds open. */
async function startHangingServer(): Promise<{ url: string; open: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { url: '', open: 0, close: () => Promise.resolve() };
  const server = createServer((req) => {
    state.open += 1;
    req.on('close', () => (state.open -= 1));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

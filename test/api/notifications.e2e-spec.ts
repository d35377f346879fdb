import request from 'supertest';
import { CHANNEL_TYPES, SECRET_MASK, type NotificationHistoryItem, type NotificationsResponse } from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const RESEND_KEY = 're_live_0123456789abcdef';

describe('notifications: channels, settings, alerts and the delivery outbox', () => {
  let app: TestApp;
  let member: Session;
  let fake: FakeNotifier;
  let target: TargetServer;
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    [fake, target] = await Promise.all([startFakeNotifier(), startTargetServer()]);
    app = await startTestApp({
      env: {
        ...USERS_REACH_LOOPBACK,
        TELEGRAM_API_URL: fake.url,
        RESEND_API_URL: fake.url,
        NOTIFICATION_RETRY_BASE_MS: '300',
        ALERT_THRESHOLD_REPORTS: '3',
        AGENT_GRACE_SECONDS: '2',
      },
    });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  beforeEach(async () => {
    // Each case starts from nothing configured, so earlier settings cannot add or hide messages.
    await resetSettings();
    fake.clear();
    target.respond(200);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([fake?.close(), target?.close()]);
  });

  const api = () => request(app.url);

  async function channel(type: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<number> {
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(member.auth)
      .send({ name: `${type} ${Date.now()}`, type, enabled: true, config: JSON.stringify(config), ...extra })
      .expect(201);
    expect(body).toEqual({ success: true, message: 'Notification channel saved', data: { id: expect.any(Number) } });
    return body.data.id;
  }

  const telegram = (chatId = '-100200300') => channel('telegram', { botToken: BOT_TOKEN, chatId });
  const resend = () => channel('resend', { apiKey: RESEND_KEY, from: 'Vigil <alerts@example.com>', to: 'ops@example.com' });
  const webhook = (name: string) =>
    channel('webhook', { url: `${fake.url}/hook/${name}`, headers: { Authorization: 'Bearer hook-secret-1' } });

  async function settings(body: Record<string, unknown>): Promise<void> {
    const { body: answer } = await api().post('/api/notifications/settings').set(member.auth).send(body).expect(200);
    expect(answer).toEqual({ success: true, message: 'Notification settings saved' });
  }

  async function resetSettings(): Promise<void> {
    await settings({ target_type: 'global-monitor', enabled: false, channels: '[]' });
    await settings({ target_type: 'global-agent', enabled: false, channels: '[]' });
  }

  async function monitor(name: string): Promise<number> {
    const { body } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name, url: `${target.url}/${name}`, interval: 3600, retries: 0 })
      .expect(201);
    await waitFor(
      () => monitorStatus(body.monitor.id),
      (status) => status === 'up',
    );
    return body.monitor.id;
  }

  const monitorStatus = async (id: number): Promise<string> =>
    (await api().get(`/api/monitors/${id}`).set(member.auth)).body.monitor.status;

  async function goDown(id: number): Promise<void> {
    target.respond(500);
    await api().post(`/api/monitors/${id}/check`).set(member.auth);
    expect(await monitorStatus(id)).toBe('down');
  }

  async function comeUp(id: number): Promise<void> {
    target.respond(200);
    await api().post(`/api/monitors/${id}/check`).set(member.auth);
    expect(await monitorStatus(id)).toBe('up');
  }

  async function history(query = ''): Promise<NotificationHistoryItem[]> {
    const { body } = await api().get(`/api/notifications/history${query}`).set(member.auth).expect(200);
    return body.items;
  }

  const read = async (): Promise<NotificationsResponse['data']> =>
    (await api().get('/api/notifications').set(member.auth).expect(200)).body.data;

  it('needs a signed-in user for every route', async () => {
    await api().get('/api/notifications').expect(401);
    await api().post('/api/notifications/channels').send({}).expect(401);
    await api().put('/api/notifications/channels/1').send({}).expect(401);
    await api().delete('/api/notifications/channels/1').expect(401);
    await api().post('/api/notifications/channels/1/test').expect(401);
    await api().post('/api/notifications/settings').send({}).expect(401);
    await api().get('/api/notifications/history').expect(401);
  });

  it.each([
    [{ type: 'telegram', config: '{}' }, 'Channel name is required'],
    [{ name: 'x', type: 'pager', config: '{}' }, `Channel type must be one of ${CHANNEL_TYPES.join(', ')}`],
    [{ name: 'x', type: 'telegram', config: '{not json' }, 'Channel configuration must be a JSON object'],
    [{ name: 'x', type: 'telegram', config: '{"chatId":"1"}' }, 'Bot Token is required'],
    [{ name: 'x', type: 'telegram', config: '{"botToken":"nope","chatId":"1"}' }, 'Invalid Bot Token format'],
    [{ name: 'x', type: 'resend', config: '{"from":"a@b.co","to":"c@d.co"}' }, 'API key is required'],
    [{ name: 'x', type: 'resend', config: '{"apiKey":"re_1","to":"c@d.co"}' }, 'Sender is required'],
    [{ name: 'x', type: 'resend', config: '{"apiKey":"re_1","from":"not an address","to":"c@d.co"}' }, 'Invalid sender format'],
    [{ name: 'x', type: 'resend', config: '{"apiKey":"re_1","from":"a@b.co"}' }, 'Recipient is required'],
    [{ name: 'x', type: 'webhook', config: '{"url":"ftp://example.com"}' }, 'Webhook URL must start with http:// or https://'],
    [{ name: 'x', type: 'slack', config: '{}' }, 'Webhook URL is required'],
  ])('refuses channel %j with its message', async (body, message) => {
    const { body: answer } = await api().post('/api/notifications/channels').set(member.auth).send(body).expect(400);
    expect(answer).toMatchObject({ success: false, message });
  });

  it('answers bad ids and unknown channels clearly', async () => {
    expect((await api().put('/api/notifications/channels/abc').set(member.auth).send({}).expect(400)).body).toMatchObject({
      message: 'invalid id',
    });
    expect((await api().delete('/api/notifications/channels/-1').set(member.auth).expect(400)).body).toMatchObject({
      message: 'invalid id',
    });
    await api().delete('/api/notifications/channels/999999').set(member.auth).expect(404);
    await api().post('/api/notifications/channels/999999/test').set(member.auth).expect(404);
    const valid = { name: 'x', type: 'slack', config: JSON.stringify({ webhookUrl: 'https://hooks.slack.com/services/T/B/C' }) };
    await api().put('/api/notifications/channels/999999').set(member.auth).send(valid).expect(404);
  });

  it('stores secrets but reads them masked; an edit sending the mask back keeps them', async () => {
    const id = await telegram();
    const hook = await webhook('masked');
    const { body } = await api().get('/api/notifications').set(member.auth).expect(200);
    expect(JSON.stringify(body)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(body)).not.toContain('hook-secret-1');
    const listed = body.data.channels.find((c: { id: number }) => c.id === id);
    expect(listed).toMatchObject({ type: 'telegram', enabled: true, language: 'zh-CN' });
    expect(typeof listed.config).toBe('string');
    expect(JSON.parse(listed.config)).toEqual({ botToken: SECRET_MASK, chatId: '-100200300' });
    expect(JSON.parse(body.data.channels.find((c: { id: number }) => c.id === hook).config).headers).toEqual({
      Authorization: SECRET_MASK,
    });

    await api()
      .put(`/api/notifications/channels/${id}`)
      .set(member.auth)
      .send({ name: 'renamed', type: 'telegram', enabled: true, language: 'en-US', config: listed.config.replace('-100200300', '-42') })
      .expect(200);
    const tested = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(200);
    expect(tested.body).toEqual({ success: true, message: 'Test message sent', data: { status: 200, detail: expect.any(String) } });
    const [sent] = fake.of('telegram');
    expect(sent.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(sent.json).toMatchObject({ chat_id: '-42', text: expect.stringContaining('renamed') });
    expect(sent.json.text).toContain('This is a test message from Vigil');

    // The send above went out with the real token after an edit that sent the mask back: the stored secret was kept.
    expect(app.output()).not.toContain(BOT_TOKEN);
  });

  it('reports a refused test with the provider’s answer and keeps it in the history', async () => {
    const id = await resend();
    fake.failNext(1, 401);
    const { body } = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(502);
    expect(body).toMatchObject({ success: false, message: expect.stringMatching(/^Test message failed: /), data: { status: 401 } });
    expect(body.message).not.toContain(RESEND_KEY);
    const [item] = await history('?target_kind=test&status=failed');
    expect(item).toMatchObject({ event: 'test', channel_id: id, channel_type: 'resend', status: 'failed', attempts: 1 });
    expect(item.tries).toEqual([expect.objectContaining({ attempt: 1, ok: false, http_status: 401 })]);

    const unsaved = await api()
      .post('/api/notifications/channels/test')
      .set(member.auth)
      .send({ name: 'draft', type: 'webhook', config: JSON.stringify({ url: `${fake.url}/hook/draft` }) })
      .expect(200);
    expect(unsaved.body.success).toBe(true);
    expect(fake.of('webhook', '/hook/draft')[0].json).toMatchObject({
      event: 'test',
      severity: 'info',
      target: { kind: 'test', name: 'draft' },
    });
  });

  it('validates settings and reads them back with booleans and id lists', async () => {
    const id = await telegram();
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [{ target_type: 'everything', channels: '[]' }, 400, 'Target type must be global-monitor, global-agent, monitor or agent'],
      [{ target_type: 'monitor', channels: '[]' }, 400, 'A monitor or agent id is required for a specific setting'],
      [{ target_type: 'global-agent', cpu_threshold: 101, channels: '[]' }, 400, 'Thresholds must be whole numbers from 0 to 100'],
      [{ target_type: 'global-agent', enabled: 'maybe', channels: '[]' }, 400, 'A true or false value is required'],
      [{ target_type: 'global-monitor', channels: '[1,' }, 400, 'Channels must be a JSON list of channel ids'],
      [{ target_type: 'global-monitor', channels: '[999999]' }, 400, 'A selected notification channel does not exist'],
      [{ target_type: 'monitor', target_id: 999999, channels: '[]' }, 404, 'The monitor or agent does not exist'],
    ];
    for (const [body, status, message] of refusals) {
      const { body: answer } = await api().post('/api/notifications/settings').set(member.auth).send(body).expect(status);
      expect(answer).toMatchObject({ success: false, message });
    }

    const monitorId = await monitor('settings-read');
    await settings({
      target_type: 'global-monitor',
      enabled: 1,
      on_down: 'true',
      on_recovery: false,
      on_certificate_expiry: '0',
      channels: `[${id}]`,
    });
    await settings({ target_type: 'global-agent', enabled: true, on_cpu_threshold: true, cpu_threshold: '75', channels: [id] });
    await settings({
      target_type: 'monitor',
      target_id: monitorId,
      enabled: false,
      override_global: true,
      on_down: true,
      on_recovery: true,
      channels: `[${id}]`,
    });
    const { settings: saved } = await read();
    expect(saved.monitors).toEqual({
      enabled: true,
      onDown: true,
      onRecovery: false,
      onCertificateExpiry: false,
      onDegraded: false,
      channels: [id],
      reminderMinutes: null,
      escalation: [],
    });
    expect(saved.agents).toMatchObject({
      enabled: true,
      onCpuThreshold: true,
      cpuThreshold: 75,
      memoryThreshold: 85,
      diskThreshold: 90,
      channels: [id],
    });
    // Override on forces enabled (spec section 4).
    expect(saved.specificMonitors[monitorId]).toEqual({
      enabled: true,
      onDown: true,
      onRecovery: true,
      onCertificateExpiry: true,
      onDegraded: false,
      channels: [id],
      reminderMinutes: null,
      escalation: [],
      overrideGlobal: true,
    });

    await api().delete(`/api/notifications/channels/${id}`).set(member.auth).expect(200);
    const after = await read();
    expect(after.settings.monitors.channels).toEqual([]);
    expect(after.channels.find((c) => c.id === id)).toBeUndefined();
    expect(after.templates.length).toBeGreaterThan(0);
    expect(after.templates.every((t) => t.is_default === true)).toBe(true);
  });

  it('sends exactly one down and one recovery message per enabled channel', async () => {
    const channels = [await telegram(), await resend(), await webhook('updown')];
    const disabled = await channel('webhook', { url: `${fake.url}/hook/disabled` }, { enabled: false });
    await settings({
      target_type: 'global-monitor',
      enabled: true,
      on_down: true,
      on_recovery: true,
      channels: JSON.stringify([...channels, disabled]),
    });
    const id = await monitor('updown');

    await goDown(id);
    await api().post(`/api/monitors/${id}/check`).set(member.auth); // still down: no second alert
    await waitFor(
      async () => fake.received.length,
      (n) => n >= 3,
    );
    await comeUp(id);
    await api().post(`/api/monitors/${id}/check`).set(member.auth); // still up: no second recovery
    await waitFor(
      async () => fake.received.length,
      (n) => n >= 6,
    );
    await sleep(1500);

    expect(fake.of('telegram').map((r) => r.json.text.split('\n')[0])).toEqual(['[故障] updown', '[恢复] updown']);
    expect(fake.of('resend').map((r) => r.json.subject)).toEqual(['[故障] updown', '[恢复] updown']);
    expect(fake.of('resend')[0].json).toMatchObject({ from: 'Vigil <alerts@example.com>', to: ['ops@example.com'] });
    expect(fake.of('resend')[0].headers.authorization).toBe(`Bearer ${RESEND_KEY}`);
    const hooks = fake.of('webhook', '/hook/updown');
    expect(hooks.map((r) => [r.json.event, r.json.severity])).toEqual([
      ['monitor.down', 'alert'],
      ['monitor.recovery', 'recovery'],
    ]);
    expect(hooks[0].headers.authorization).toBe('Bearer hook-secret-1');
    expect(hooks[0].json.target).toEqual({ kind: 'monitor', id, name: 'updown' });
    expect(hooks[0].json.text).toContain('500');
    expect(fake.of('webhook', '/hook/disabled')).toEqual([]);
    expect(fake.received).toHaveLength(6);

    const items = await history(`?target_kind=monitor&target_id=${id}`);
    expect(items).toHaveLength(6);
    expect(items.every((item) => item.status === 'sent' && item.attempts === 1)).toBe(true);
  });

  it('sends no recovery for a down that was not notified', async () => {
    const hook = await webhook('quiet');
    const id = await monitor('quiet');
    await goDown(id);
    await settings({ target_type: 'global-monitor', enabled: true, channels: `[${hook}]` });
    await comeUp(id);
    await sleep(1500);
    expect(fake.received).toEqual([]);
  });

  it('lets a per-monitor override beat the global settings', async () => {
    const globalHook = await webhook('global');
    const specificHook = await webhook('specific');
    await settings({ target_type: 'global-monitor', enabled: true, channels: `[${globalHook}]` });
    const overridden = await monitor('overridden');
    const notOverridden = await monitor('plain');
    await settings({
      target_type: 'monitor',
      target_id: overridden,
      override_global: true,
      on_down: true,
      on_recovery: false,
      channels: `[${specificHook}]`,
    });
    // An entry without override changes nothing.
    await settings({
      target_type: 'monitor',
      target_id: notOverridden,
      override_global: false,
      enabled: true,
      channels: `[${specificHook}]`,
    });

    await goDown(overridden);
    await goDown(notOverridden);
    await waitFor(
      async () => fake.received.length,
      (n) => n >= 2,
    );
    await comeUp(overridden);
    await comeUp(notOverridden);
    await waitFor(
      async () => fake.received.length,
      (n) => n >= 3,
    );
    await sleep(1500);

    expect(fake.of('webhook', '/hook/specific').map((r) => [r.json.target.name, r.json.event])).toEqual([['overridden', 'monitor.down']]);
    expect(fake.of('webhook', '/hook/global').map((r) => [r.json.target.name, r.json.event])).toEqual([
      ['plain', 'monitor.down'],
      ['plain', 'monitor.recovery'],
    ]);
  });

  it('retries a failing channel: two 500s, then delivered on the third attempt', async () => {
    const hook = await webhook('flaky');
    await settings({ target_type: 'global-monitor', enabled: true, on_recovery: false, channels: `[${hook}]` });
    const id = await monitor('flaky');
    fake.failNext(2, 500);
    await goDown(id);

    const [item] = await waitFor(
      () => history(`?target_kind=monitor&target_id=${id}`),
      (items) => items[0]?.status === 'sent',
    );
    expect(fake.of('webhook', '/hook/flaky')).toHaveLength(3);
    expect(item).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(item.tries.map((t) => [t.attempt, t.ok, t.http_status])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, true, 200],
    ]);
    // Backoff: the second retry waited about twice as long as the first (base 300 ms, ±10 %).
    const [first, second, third] = fake.of('webhook', '/hook/flaky').map((r) => r.at);
    expect(second - first).toBeGreaterThanOrEqual(250);
    expect(third - second).toBeGreaterThanOrEqual(500);
  });

  it('gives every attempt of one delivery the same key and every other delivery another (X-Vigil-Delivery, delivery_id)', async () => {
    const hook = await webhook('keyed');
    const bot = await telegram();
    await settings({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: `[${hook},${bot}]` });
    const id = await monitor('keyed');
    // The down alert fails twice on each channel, then goes through: three attempts of each of two rows.
    fake.failAll(500);
    await goDown(id);
    await waitFor(
      async () => [fake.of('webhook', '/hook/keyed').length, fake.of('telegram').length],
      ([hooks, bots]) => hooks >= 2 && bots >= 2,
    );
    fake.failAll(null);
    await waitFor(
      () => history(`?target_kind=monitor&target_id=${id}`),
      (items) => items.length === 2 && items.every((item) => item.status === 'sent'),
    );
    await comeUp(id);
    await waitFor(
      () => history(`?target_kind=monitor&target_id=${id}`),
      (items) => items.length === 4 && items.every((item) => item.status === 'sent'),
    );

    const keyOf = (r: (typeof fake.received)[number]) => r.headers['x-vigil-delivery'];
    const hooks = fake.of('webhook', '/hook/keyed');
    const downHooks = hooks.filter((r) => r.json.event === 'monitor.down');
    const downBots = fake.of('telegram').filter((r) => r.json.text.startsWith('[故障]'));
    expect(downHooks.length).toBeGreaterThanOrEqual(3);
    expect(downBots.length).toBeGreaterThanOrEqual(3);
    // Retries of one row: one key, a UUID, the same in the header and in the webhook's body.
    expect(new Set(downHooks.map(keyOf)).size).toBe(1);
    expect(new Set(downBots.map(keyOf)).size).toBe(1);
    expect(keyOf(downHooks[0])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(downHooks.every((r) => r.json.delivery_id === keyOf(r))).toBe(true);
    // Different rows (another channel, another event): different keys.
    const recovery = hooks.filter((r) => r.json.event === 'monitor.recovery');
    expect(recovery).toHaveLength(1);
    const recoveryBot = fake.of('telegram').filter((r) => r.json.text.startsWith('[恢复]'));
    expect(recoveryBot).toHaveLength(1);
    const keys = [keyOf(downHooks[0]), keyOf(downBots[0]), keyOf(recovery[0]), keyOf(recoveryBot[0])];
    expect(new Set(keys).size).toBe(4);
  });

  it('delivers a message still pending when the server stopped, once, after the restart', async () => {
    const hook = await webhook('restart');
    await settings({ target_type: 'global-monitor', enabled: true, on_recovery: false, channels: `[${hook}]` });
    const id = await monitor('restart');
    fake.failAll(503);
    await goDown(id);
    await waitFor(
      async () => fake.of('webhook', '/hook/restart').length,
      (n) => n >= 1,
    );
    await app.stop();
    const failedAttempts = fake.of('webhook', '/hook/restart').length;
    const [pending] = await (async () => {
      fake.failAll(null);
      await app.restart();
      return waitFor(
        () => history(`?target_kind=monitor&target_id=${id}`),
        (items) => items[0]?.status === 'sent',
      );
    })();
    await sleep(1500);
    const received = fake.of('webhook', '/hook/restart');
    expect(received).toHaveLength(failedAttempts + 1);
    expect(received.filter((r) => r.json.event === 'monitor.down')).toHaveLength(failedAttempts + 1);
    expect(pending.attempts).toBe(failedAttempts + 1);
    expect(pending.tries.filter((t) => t.ok)).toHaveLength(1);
    // The attempts before and after the restart are one delivery to the receiver: one key.
    expect(new Set(received.map((r) => r.headers['x-vigil-delivery'])).size).toBe(1);
    expect(received[0].headers['x-vigil-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(received[0].json.delivery_id).toBe(received[0].headers['x-vigil-delivery']);
  });

  it('alerts once when an agent stays above the CPU threshold for the window, and once when it recovers', async () => {
    const hook = await webhook('cpu');
    await settings({
      target_type: 'global-agent',
      enabled: true,
      on_offline: false,
      on_recovery: false,
      on_cpu_threshold: true,
      cpu_threshold: 80,
      channels: `[${hook}]`,
    });
    const { credential } = await enrollAgent(app.url, member, 'cpu-host');
    const socket = await connectAgent(app.url, credential, 'cpu-host');
    sockets.push(socket);
    const start = Date.now() - 60_000;
    const send = async (cpu: number, n: number) => {
      expect(await socket.timeout(5000).emitWithAck('report', agentReport({ cpu, timestamp: start + n * 5000 }))).toEqual({ ok: true });
      await sleep(600); // one report per storage batch, as a real agent's 5 s rhythm gives
    };

    const values = [95, 50, 95, 96, 97, 99, 98, 40, 30];
    for (const [n, cpu] of values.entries()) await send(cpu, n);
    await waitFor(
      async () => fake.of('webhook', '/hook/cpu').length,
      (n) => n >= 2,
    );
    await sleep(1000);

    const received = fake.of('webhook', '/hook/cpu').map((r) => r.json);
    expect(received.map((m) => [m.event, m.severity])).toEqual([
      ['agent.cpu_high', 'alert'],
      ['agent.cpu_recovery', 'recovery'],
    ]);
    expect(received[0].text).toContain('97');
    expect(received[0].text).toContain('80');
    expect(received[0].target.name).toBe('cpu-host');
  });

  it('alerts when an agent goes offline and when it comes back', async () => {
    const hook = await webhook('offline');
    await settings({ target_type: 'global-agent', enabled: true, on_offline: true, on_recovery: true, channels: `[${hook}]` });
    const { credential } = await enrollAgent(app.url, member, 'offline-host');
    // Other cases' agents may go offline meanwhile, in the same sweep (then the channel groups them into one message
    // with `items`): count only this one's transitions, wherever they are.
    const events = async () =>
      fake
        .of('webhook', '/hook/offline')
        .flatMap((r) => (r.json.items ?? [r.json]) as Array<{ event: string; target: { name: string } }>)
        .filter((item) => item.target.name === 'offline-host')
        .map((item) => item.event);
    let socket = await connectAgent(app.url, credential, 'offline-host');
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    await sleep(700);
    socket.disconnect();
    await waitFor(events, (e) => e.length >= 1, 15_000);
    socket = await connectAgent(app.url, credential, 'offline-host');
    sockets.push(socket);
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    await waitFor(events, (e) => e.length >= 2);
    await sleep(1000);
    expect(await events()).toEqual(['agent.offline', 'agent.recovery']);
  });

  it('pages and filters the history', async () => {
    const hook = await webhook('paging');
    for (let i = 0; i < 3; i += 1) await api().post(`/api/notifications/channels/${hook}/test`).set(member.auth).expect(200);
    const { body } = await api().get(`/api/notifications/history?channel_id=${hook}&pageSize=2&page=1`).set(member.auth).expect(200);
    expect(body).toMatchObject({ success: true, total: 3, page: 1, pageSize: 2 });
    expect(body.items).toHaveLength(2);
    expect(Date.parse(body.items[0].created_at)).toBeGreaterThanOrEqual(Date.parse(body.items[1].created_at));
    const second = await api().get(`/api/notifications/history?channel_id=${hook}&pageSize=2&page=2`).set(member.auth).expect(200);
    expect(second.body.items).toHaveLength(1);
    await api().get('/api/notifications/history?status=lost').set(member.auth).expect(400);
    await api().get('/api/notifications/history?target_id=abc').set(member.auth).expect(400);
  });
});

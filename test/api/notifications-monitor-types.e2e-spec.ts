import request from 'supertest';
import { SECRET_MASK as M, type NotificationHistoryItem } from '@vigil/proto';
import { startTcpServer, type FakeTcpServer } from '../../server/src/monitors/checkers/fakes/tcp-server.testing';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Notifications of monitors of every type (issue 16): the down and recovery texts name a non-HTTP monitor's type and
 * target instead of a status code, in the channel's language and without secrets, and the history names each
 * monitor entry's type and target fields.
 */
describe('notifications of monitor types', () => {
  let app: TestApp;
  let member: Session;
  let fake: FakeNotifier;
  let target: TargetServer;
  let tcp: FakeTcpServer;
  let closedPort: number;

  beforeAll(async () => {
    [fake, target, tcp] = await Promise.all([startFakeNotifier(), startTargetServer(), startTcpServer()]);
    // A port nothing listens on: a listener's, closed again.
    const closed = await startTcpServer();
    closedPort = closed.port;
    await closed.close();
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  beforeEach(() => fake.clear());
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([fake?.close(), target?.close(), tcp?.close()]);
  });

  const api = () => request(app.url);

  async function webhooks(name: string): Promise<void> {
    const ids: number[] = [];
    for (const language of ['en-US', 'zh-CN']) {
      const { body } = await api()
        .post('/api/notifications/channels')
        .set(member.auth)
        .send({
          name: `${name} ${language}`,
          type: 'webhook',
          language,
          config: JSON.stringify({ url: `${fake.url}/hook/${name}/${language}` }),
        })
        .expect(201);
      ids.push(body.data.id);
    }
    await api()
      .post('/api/notifications/settings')
      .set(member.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: JSON.stringify(ids) })
      .expect(200);
  }

  async function create(body: Record<string, unknown>): Promise<number> {
    const { body: answer } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ interval: 3600, retries: 0, ...body })
      .expect(201);
    return answer.monitor.id;
  }

  async function checkUntil(id: number, status: 'up' | 'down'): Promise<void> {
    await waitFor(
      async () => (await api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200)).body.monitor?.status,
      (value) => value === status,
    );
  }

  /** The texts the two hooks of `name` received, English first. */
  const texts = (name: string) =>
    waitFor(
      async () => [fake.of('webhook', `/hook/${name}/en-US`), fake.of('webhook', `/hook/${name}/zh-CN`)],
      ([en, zh]) => en.length > 0 && zh.length > 0,
    ).then(([en, zh]) => [en.map((r) => r.json.text), zh.map((r) => r.json.text)]);

  async function history(id: number): Promise<NotificationHistoryItem[]> {
    const { body } = await api().get(`/api/notifications/history?target_kind=monitor&target_id=${id}`).set(member.auth).expect(200);
    return body.items;
  }

  it('tells of a TCP monitor going down and back up by its type and target, without a status code', async () => {
    await webhooks('tcp');
    const id = await create({ name: 'orders port', type: 'tcp', hostname: '127.0.0.1', port: tcp.port });
    await checkUntil(id, 'up');

    await tcp.stop();
    await checkUntil(id, 'down');
    const [[enDown], [zhDown]] = await texts('tcp');
    expect(enDown.split('\n').slice(0, 4)).toEqual([
      'orders port is down.',
      'Type: TCP port',
      `Target: 127.0.0.1:${tcp.port}`,
      'Error: Connection refused',
    ]);
    expect(zhDown.split('\n').slice(0, 4)).toEqual([
      'orders port 无法访问。',
      '类型：TCP 端口',
      `目标：127.0.0.1:${tcp.port}`,
      '错误：Connection refused',
    ]);
    expect(enDown).not.toContain('Status code');
    expect(zhDown).not.toContain('状态码');

    fake.clear();
    await tcp.start();
    await checkUntil(id, 'up');
    const [[enUp], [zhUp]] = await texts('tcp');
    expect(enUp).toContain(`Target: 127.0.0.1:${tcp.port}`);
    expect(zhUp).toContain(`目标：127.0.0.1:${tcp.port}`);
    expect(enUp + zhUp).not.toMatch(/Status code|状态码/);

    const items = await history(id);
    expect(items).toHaveLength(4);
    for (const item of items)
      expect(item.monitor).toEqual({
        type: 'tcp',
        hostname: '127.0.0.1',
        port: tcp.port,
        dns_record_type: null,
        url: `tcp://127.0.0.1:${tcp.port}`,
      });
  });

  it('names a database monitor by host and port, never its password', async () => {
    await webhooks('db');
    const id = await create({
      name: 'orders db',
      type: 'postgres',
      connectionString: `postgres://vigil:s3cret-pw@127.0.0.1:${closedPort}/orders`,
    });
    await checkUntil(id, 'down');
    const [[en], [zh]] = await texts('db');
    expect(en).toContain(`Type: PostgreSQL\nTarget: 127.0.0.1:${closedPort}\nError: `);
    expect(zh).toContain(`类型：PostgreSQL\n目标：127.0.0.1:${closedPort}\n错误：`);
    expect(en + zh).not.toContain('s3cret-pw');

    const [item] = await history(id);
    expect(item.monitor).toEqual({
      type: 'postgres',
      hostname: '127.0.0.1',
      port: closedPort,
      dns_record_type: null,
      url: `postgres://127.0.0.1:${closedPort}`,
    });
    expect(JSON.stringify(item)).not.toContain('s3cret-pw');
  });

  it('keeps the HTTP text, adds the monitor to the history with its URL masked and only adds that field', async () => {
    await webhooks('http');
    const url = `${target.url.replace('http://', 'http://ops:hunter2@')}/health?token=abc123`;
    const id = await create({ name: 'shop', url });
    await checkUntil(id, 'up');
    target.respond(503);
    await checkUntil(id, 'down');
    const [[en], [zh]] = await texts('http');
    expect(en).toContain('Status code: 503 (expected 200)');
    expect(zh).toContain('状态码：503（期望 200）');
    expect(en + zh).not.toMatch(/hunter2|abc123/);
    target.respond(200);

    const [item] = await history(id);
    const masked = `${target.url.replace('http://', `http://${M}@`)}/health?token=${M}`;
    expect(item.monitor).toEqual({ type: 'http', hostname: null, port: null, dns_record_type: null, url: masked });
    expect(Object.keys(item).sort()).toEqual(
      [
        'id',
        'event',
        'severity',
        'subject',
        'text',
        'target_kind',
        'target_id',
        'target_name',
        'monitor',
        'channel_id',
        'channel_name',
        'channel_type',
        'status',
        'attempts',
        'next_attempt_at',
        'last_error',
        'created_at',
        'sent_at',
        'tries',
        'alert_id',
      ].sort(),
    );

    await api().delete(`/api/monitors/${id}`).set(member.auth).expect(200);
    const after = await history(id);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((entry) => entry.monitor === null && entry.target_name === 'shop')).toBe(true);
  });
});

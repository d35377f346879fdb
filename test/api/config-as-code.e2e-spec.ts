import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { parse, stringify } from 'yaml';
import type { ApplyResponse, ConfigDocument, MonitorDto } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'scripts', 'vigil.mjs');
const SECRET = 'Bearer hook-s3cret';

/** Issue 34, requirements 4 and 5: export, schema, plan, apply (one transaction), prune, round trip, the CLI. */
describe('Monitors as code', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: Session;
  let adminB: Session;
  const ids: Record<string, number> = {};

  const yamlOf = async (app: TestApp, session: Session, secrets = true) =>
    (
      await request(app.url)
        .get(`/api/export${secrets ? '?secrets=true' : ''}`)
        .set(session.auth)
        .expect(200)
    ).text;
  const apply = (app: TestApp, session: Session, text: string, query = '') =>
    request(app.url).post(`/api/apply${query}`).set(session.auth).set('Content-Type', 'application/yaml').send(text);
  const monitorCount = async (app: TestApp, session: Session) =>
    (await request(app.url).get('/api/monitors').set(session.auth).expect(200)).body.total as number;

  beforeAll(async () => {
    [a, b] = await Promise.all([0, 1].map(() => startTestApp({ env: USERS_REACH_LOOPBACK })));
    [admin, adminB] = await Promise.all([registerFirstAdmin(a.url), registerFirstAdmin(b.url)]);
    const post = async (path: string, body: object) => (await request(a.url).post(path).set(admin.auth).send(body).expect(201)).body;
    const channel = await post('/api/notifications/channels', {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook', headers: { Authorization: SECRET } },
    });
    ids.channel = channel.data.id;
    ids.edge = (await post('/api/monitors', { name: 'Edge', type: 'group' })).monitor.id;
    ids.db = (
      await post('/api/monitors', {
        name: 'DB port',
        type: 'tcp',
        hostname: '127.0.0.1',
        port: 9,
        interval: 60,
        // Monitors' description, tags and upside-down mode travel in the document too.
        description: 'Must stay closed to the outside\nsecond line',
        tags: ['env:prod', 'firewall'],
        upsideDown: true,
      })
    ).monitor.id;
    ids.api = (
      await post('/api/monitors', {
        name: 'API',
        url: 'http://127.0.0.1:9/health',
        parentId: ids.edge,
        dependsOn: [{ type: 'monitor', id: ids.db }],
        interval: 60,
      })
    ).monitor.id;
    ids.push = (await post('/api/monitors', { name: 'Nightly backup', type: 'push', interval: 3600 })).monitor.id;
    // A type whose settings live in the settings column, one of them a secret.
    const broker = {
      name: 'Broker',
      type: 'mqtt',
      hostname: '127.0.0.1',
      mqttTopic: 'plant/#',
      mqttUsername: 'u',
      mqttPassword: 'broker-pw',
    };
    ids.broker = (await post('/api/monitors', broker)).monitor.id;
    await request(a.url)
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({
        target_type: 'monitor',
        target_id: ids.api,
        enabled: true,
        on_down: true,
        on_recovery: true,
        channels: [ids.channel],
        override_global: true,
      })
      .expect(200);
    await request(a.url)
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: false, channels: [ids.channel] })
      .expect(200);
    await post('/api/status-pages', {
      slug: 'public',
      title: 'Public',
      groups: [{ name: 'Core', collapsed: false, items: [{ type: 'monitor', id: ids.api }] }],
    });
    await post('/api/maintenance', {
      title: 'Nightly',
      strategy: 'weekly',
      timezone: 'UTC',
      weekdays: [0],
      startTime: '02:00',
      endTime: '03:00',
      scope: { all: false, monitors: [ids.api], agents: [], groups: [ids.edge] },
      pages: ['public'],
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a, b].map((app) => app?.destroy()));
  }, 60_000);

  it('exports every section by key, secrets as placeholders unless asked for', async () => {
    const masked = parse(await yamlOf(a, admin, false)) as ConfigDocument;
    expect(masked.version).toBe(1);
    const api = masked.monitors!.find((monitor) => monitor.key === 'api')!;
    expect(api).toMatchObject({ name: 'API', type: 'http', parent: 'edge', dependsOn: ['db-port'], url: 'http://127.0.0.1:9/health' });
    expect(api.notifications).toMatchObject({ channels: ['ops-hook'], overrideGlobal: true });
    expect(masked.monitors!.find((monitor) => monitor.key === 'db-port')).toMatchObject({
      description: 'Must stay closed to the outside\nsecond line',
      tags: ['env:prod', 'firewall'],
      upsideDown: true,
    });
    expect(api).toMatchObject({ upsideDown: false });
    expect(api).not.toHaveProperty('tags');
    expect(api).not.toHaveProperty('description');
    const hook = masked.channels!.find((channel) => channel.key === 'ops-hook')!;
    expect(hook).toMatchObject({
      defaultForMonitors: true,
      config: { url: 'http://127.0.0.1:9/hook', headers: '${VIGIL_CHANNEL_OPS_HOOK_HEADERS}' },
    });
    expect(JSON.stringify(masked)).not.toContain('hook-s3cret');
    expect(masked.monitors!.find((monitor) => monitor.key === 'broker')).toMatchObject({
      hostname: '127.0.0.1',
      mqttTopic: 'plant/#',
      mqttPassword: '${VIGIL_MONITOR_BROKER_MQTT_PASSWORD}',
    });
    expect(JSON.stringify(masked)).not.toContain('broker-pw');
    expect(masked.maintenance![0]).toMatchObject({ key: 'nightly', scope: { monitors: ['api'], groups: ['edge'] }, pages: ['public'] });
    expect(masked.statusPages!.find((page) => page.slug === 'public')!.groups[0].items).toEqual(['api']);

    const real = parse(await yamlOf(a, admin)) as ConfigDocument;
    expect(real.channels!.find((channel) => channel.key === 'ops-hook')!.config.headers).toEqual({ Authorization: SECRET });
  });

  it('accepts, makes and returns a monitor key; a taken key is a 409', async () => {
    const given = await request(a.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'Keyed', key: 'keyed.one', type: 'manual' })
      .expect(201);
    expect(given.body.monitor.key).toBe('keyed.one');
    const made = await request(a.url).post('/api/monitors').set(admin.auth).send({ name: 'API', type: 'manual' }).expect(201);
    expect(made.body.monitor.key).toBe('api-2');
    const taken = await request(a.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'Other', key: 'keyed.one', type: 'manual' })
      .expect(409);
    expect(taken.body.message).toBe('Another monitor already has this key');
    await request(a.url).post('/api/monitors').set(admin.auth).send({ name: 'Bad', key: 'Not A Key', type: 'manual' }).expect(400);
    // Writers naming monitors alike at the same moment each get a key of their own (the key default waits for the first).
    const twins = await Promise.all(
      [1, 2, 3, 4, 5].map(() => request(a.url).post('/api/monitors').set(admin.auth).send({ name: 'Twin', type: 'manual' }).expect(201)),
    );
    expect(new Set(twins.map((twin) => twin.body.monitor.key as string)).size).toBe(5);
    for (const id of [given.body.monitor.id, made.body.monitor.id, ...twins.map((twin) => twin.body.monitor.id as number)])
      await request(a.url).delete(`/api/monitors/${id}`).set(admin.auth).expect(200);
  });

  it('gives secrets only to a session or a write key; a read key exports placeholders', async () => {
    const { body } = await request(a.url).post('/api/api-keys').set(admin.auth).send({ name: 'reader', scope: 'read' }).expect(201);
    const reader = { Authorization: `Bearer ${body.secret as string}` };
    const plain = await request(a.url).get('/api/export').set(reader).expect(200);
    expect(plain.text).toContain('${VIGIL_CHANNEL_OPS_HOOK_HEADERS}');
    const refused = await request(a.url).get('/api/export?secrets=true').set(reader).expect(403);
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.text).not.toContain(SECRET);
  });

  it('gives channels and maintenance windows keys too, read and written through their own routes', async () => {
    const { body: notifications } = await request(a.url).get('/api/notifications').set(admin.auth).expect(200);
    expect(notifications.data.channels.map((channel: { key: string }) => channel.key)).toContain('ops-hook');
    const { body: windows } = await request(a.url).get('/api/maintenance').set(admin.auth).expect(200);
    expect(windows.maintenance[0].key).toBe('nightly');

    const channel = { name: 'Keyed hook', key: 'keyed-hook', type: 'webhook', config: { url: 'http://127.0.0.1:9/k' } };
    const created = await request(a.url).post('/api/notifications/channels').set(admin.auth).send(channel).expect(201);
    await request(a.url).post('/api/notifications/channels').set(admin.auth).send(channel).expect(409);
    await request(a.url).delete(`/api/notifications/channels/${created.body.data.id}`).set(admin.auth).expect(200);
    const window = { title: 'Keyed', key: 'nightly', strategy: 'manual', scope: { all: true, monitors: [], agents: [], groups: [] } };
    const taken = await request(a.url).post('/api/maintenance').set(admin.auth).send(window).expect(409);
    expect(taken.body.message).toBe('Another maintenance window already has this key');
  });

  it('publishes the JSON Schema the document follows', async () => {
    const { body } = await request(a.url).get('/api/export/schema').set(admin.auth).expect(200);
    expect(body).toMatchObject({ title: 'Vigil configuration document', required: expect.arrayContaining(['version']) });
    expect(body.properties.monitors.items.required).toEqual(expect.arrayContaining(['key', 'name', 'type']));
  });

  it('plans nothing for its own export, twice, and keeps every id', async () => {
    const text = await yamlOf(a, admin);
    const dry = await apply(a, admin, text, '?dryRun=true').expect(200);
    expect((dry.body as ApplyResponse).plan.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
    const applied = await apply(a, admin, text).expect(200);
    expect((applied.body as ApplyResponse).dryRun).toBe(false);
    expect(applied.body.plan.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
    expect(await yamlOf(a, admin)).toBe(text);
  });

  it('updates a monitor by key, keeping its id and its checks', async () => {
    const before = await waitFor(
      async () => (await request(a.url).get(`/api/monitors/${ids.db}`).set(admin.auth).expect(200)).body.monitor as MonitorDto,
      (monitor) => monitor.checks.length > 0,
    );
    const doc = parse(await yamlOf(a, admin)) as ConfigDocument;
    doc.monitors!.find((monitor) => monitor.key === 'db-port')!.interval = 120;
    const { body } = await apply(a, admin, stringify(doc)).expect(200);
    expect(body.plan.entries).toContainEqual({ kind: 'monitor', key: 'db-port', action: 'update', fields: ['interval'] });
    const after = (await request(a.url).get(`/api/monitors/${ids.db}`).set(admin.auth).expect(200)).body.monitor as MonitorDto;
    expect(after.interval).toBe(120);
    expect(after.checks.map((check) => check.id)).toEqual(expect.arrayContaining(before.checks.map((check) => check.id)));
  });

  it('round trip: export → apply to an empty install → export gives the same document', async () => {
    const text = await yamlOf(a, admin);
    const { body } = await apply(b, adminB, text).expect(200);
    // One channel, five monitors, one status page, one maintenance window.
    expect(body.plan.counts.create).toBe(8);
    expect(parse(await yamlOf(b, adminB))).toEqual(parse(text));
    const { body: listB } = await request(b.url).get('/api/monitors?tag=firewall').set(adminB.auth).expect(200);
    expect(listB.monitors).toMatchObject([{ name: 'DB port', upside_down: true, tags: ['env:prod', 'firewall'] }]);
    expect((await apply(b, adminB, text, '?dryRun=true').expect(200)).body.plan.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
  });

  it('refuses a document that fails the schema with each path and problem', async () => {
    const bad = stringify({ version: 1, monitors: [{ key: 'Bad Key', name: 'x', type: 'http', interval: 'often' }], extra: true });
    const { body } = await apply(a, admin, bad).expect(400);
    expect(body.success).toBe(false);
    const paths = (body.problems as Array<{ path: string }>).map((problem) => problem.path);
    expect(paths).toEqual(expect.arrayContaining(['monitors[0].key', 'monitors[0].interval', 'extra']));
    expect(body.message).toContain('monitors[0].interval');
    expect((await apply(a, admin, 'monitors: [unclosed').expect(400)).body.message).toMatch(/YAML/);
  });

  it('refuses references to nothing and a new item whose secret is a placeholder', async () => {
    const doc = {
      version: 1,
      monitors: [{ key: 'orphan', name: 'Orphan', type: 'http', url: 'http://127.0.0.1:9/', parent: 'nowhere' }],
      channels: [
        { key: 'new-hook', name: 'New', type: 'webhook', config: { url: 'http://127.0.0.1:9/x', headers: '${NOT_SET_ANYWHERE}' } },
      ],
    };
    const { body } = await apply(a, admin, stringify(doc)).expect(400);
    expect(body.problems).toEqual(
      expect.arrayContaining([
        { path: 'monitors[0].parent', problem: 'no monitor has the key nowhere' },
        expect.objectContaining({ path: 'channels[0].config.headers' }),
      ]),
    );
  });

  it('is all or nothing: a document whose last item fails leaves nothing', async () => {
    const count = await monitorCount(a, admin);
    const doc = {
      version: 1,
      channels: [{ key: 'late-hook', name: 'Late hook', type: 'webhook', config: { url: 'http://127.0.0.1:9/late' } }],
      monitors: [
        { key: 'first-new', name: 'First new', type: 'http', url: 'http://127.0.0.1:9/one' },
        { key: 'second-new', name: 'Second new', type: 'http', url: 'http://127.0.0.1:9/two', interval: 30, timeout: 45 },
      ],
    };
    const { body } = await apply(a, admin, stringify(doc)).expect(400);
    expect(body.problems[0].path).toMatch(/^monitors\[1\]/);
    expect(await monitorCount(a, admin)).toBe(count);
    const keys = (parse(await yamlOf(a, admin)) as ConfigDocument).channels!.map((channel) => channel.key);
    expect(keys).not.toContain('late-hook');
  });

  it('prunes what a listed section no longer names, and only there', async () => {
    const doc = parse(await yamlOf(b, adminB)) as ConfigDocument;
    doc.monitors = doc.monitors!.filter((monitor) => monitor.key !== 'nightly-backup');
    const { channels: _kept, ...withoutChannels } = doc;
    const dry = await apply(b, adminB, stringify(withoutChannels), '?dryRun=true&prune=true').expect(200);
    expect(dry.body.plan.entries.filter((entry: { action: string }) => entry.action === 'delete')).toEqual([
      { kind: 'monitor', key: 'nightly-backup', action: 'delete' },
    ]);
    await apply(b, adminB, stringify(withoutChannels), '?prune=true').expect(200);
    const after = parse(await yamlOf(b, adminB)) as ConfigDocument;
    expect(after.monitors!.map((monitor) => monitor.key)).not.toContain('nightly-backup');
    expect(after.channels!.map((channel) => channel.key)).toContain('ops-hook');
  });

  it('the CLI plans and applies with an API key, filling placeholders from its environment', async () => {
    const { body } = await request(a.url).post('/api/api-keys').set(admin.auth).send({ name: 'ci', scope: 'write' }).expect(201);
    const dir = await mkdtemp(join(tmpdir(), 'vigil-cli-'));
    try {
      const file = join(dir, 'vigil.yaml');
      const args = ['--server', a.url, '--api-key', body.secret as string];
      await run(process.execPath, [CLI, 'export', file, ...args]);
      expect(await readFile(file, 'utf8')).toContain('${VIGIL_CHANNEL_OPS_HOOK_HEADERS}');
      const env = { ...process.env };
      delete env.VIGIL_CHANNEL_OPS_HOOK_HEADERS;
      const planned = await run(process.execPath, [CLI, 'plan', file, ...args], { env });
      expect(planned.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete');

      const doc = parse(await readFile(file, 'utf8')) as ConfigDocument;
      doc.monitors!.find((monitor) => monitor.key === 'api')!.retries = 3;
      await writeFile(file, stringify(doc));
      const applied = await run(process.execPath, [CLI, 'apply', file, ...args], {
        env: { ...process.env, VIGIL_CHANNEL_OPS_HOOK_HEADERS: JSON.stringify({ Authorization: 'Bearer rotated' }) },
      });
      expect(applied.stdout).toContain('~ monitor api (retries)');
      expect(applied.stdout).toContain('Applied: 0 to create, 2 to update');
      const monitor = (await request(a.url).get(`/api/monitors/${ids.api}`).set(admin.auth).expect(200)).body.monitor as MonitorDto;
      expect(monitor.retries).toBe(3);
      const real = parse(await yamlOf(a, admin)) as ConfigDocument;
      expect(real.channels!.find((channel) => channel.key === 'ops-hook')!.config.headers).toEqual({ Authorization: 'Bearer rotated' });

      await expect(run(process.execPath, [CLI, 'plan', file, '--server', a.url, '--api-key', 'vgk_wrong'])).rejects.toMatchObject({
        stderr: expect.stringContaining('401'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { KumaImportReport, MaintenanceDto, MonitorDto } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

const BUILDER = join(__dirname, '..', 'fixtures', 'kuma', 'build-kuma-db.mjs');
/** The fixtures' push tokens, bot token and secrets (test/fixtures/kuma/kuma-rows.mjs). */
const TOKENS = { v1: 'Ab3dE6gH9k', v2: 'Zq8wX2cV5bN1mL4kJ7hG0fD3sA6pO9iU' };
const BOT_TOKEN = '123456789:AAFabcdefghijklmnopqrstuvwxyz012345';
const SECRETS = ['s3cret-pass', 'db-pass', 'hook-secret', 'mq-pass', 'r-secret', 'mail-pass', BOT_TOKEN, TOKENS.v1, TOKENS.v2];

/** Issue 34, requirements 1–3: import from Uptime Kuma 1.23 and 2.x databases and a 1.x JSON backup. */
describe('Import from Uptime Kuma', () => {
  let fake: FakeNotifier;
  let dir: string;
  const file = (name: string) => readFileSync(join(dir, name));

  const upload = (app: TestApp, session: Session, bytes: Buffer, query = '') =>
    request(app.url).post(`/api/import/uptime-kuma${query}`).set(session.auth).set('Content-Type', 'application/octet-stream').send(bytes);
  const imported = async (app: TestApp, session: Session, bytes: Buffer, query = ''): Promise<KumaImportReport> =>
    (
      await upload(app, session, bytes, query).expect((res) => {
        if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      })
    ).body.report;
  const monitors = async (app: TestApp, session: Session) =>
    (await request(app.url).get('/api/monitors?pageSize=100').set(session.auth).expect(200)).body.monitors as MonitorDto[];
  const skippedFor = (report: KumaImportReport) =>
    Object.fromEntries(report.skipped.map((item) => [`${item.kind}:${item.name}`, item.reason]));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kuma-e2e-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    fake = await startFakeNotifier();
    execFileSync(process.execPath, [BUILDER, dir, fake.url]);
  });

  afterAll(async () => {
    await fake?.close();
  });

  describe.each([
    { name: 'kuma-1.23.db', source: 'kuma-1.23', token: TOKENS.v1, history: 'raw', checks: 12, days: 0, monitorsIn: 19 },
    { name: 'kuma-2.db', source: 'kuma-2', token: TOKENS.v2, history: 'daily', checks: 0, days: 3, monitorsIn: 25 },
  ])('$name', ({ name, source, token, history, checks, days }) => {
    let app: TestApp;
    let admin: Session;
    let first: KumaImportReport;
    const jobId = `job-${source.replace('.', '-')}`;

    beforeAll(async () => {
      app = await startTestApp({ env: { ...USERS_REACH_LOOPBACK, TELEGRAM_API_URL: fake.url } });
      admin = await registerFirstAdmin(app.url);
    }, 120_000);

    afterAll(async () => {
      await app?.destroy();
    }, 60_000);

    it('lists on a dry run what it would create and what it skips with why, writing nothing', async () => {
      const report = await imported(app, admin, file(name), '?dryRun=true');
      expect(report).toMatchObject({ source, dryRun: true });
      const created = report.items.filter((item) => item.action === 'create').map((item) => `${item.kind}:${item.name}`);
      expect(created).toEqual(
        expect.arrayContaining([
          'monitor:Production',
          'monitor:Website',
          'monitor:Nightly backup',
          'channel:Ops hook',
          'statusPage:Acme status',
          'maintenance:Weekly patching',
        ]),
      );
      expect(skippedFor(report)).toMatchObject({
        'monitor:Minecraft': 'unsupportedType',
        'monitor:Website': 'duplicateName',
        'monitor:Containers': 'needsAgent',
        'channel:Squadcast': 'unsupportedChannel',
        'link:Welcome text → Squadcast': 'unknownChannel',
      });
      expect(skippedFor(report)).not.toHaveProperty('monitor:SSH');
      expect(report.notes).toContainEqual({ kind: 'statusPage', name: 'Acme status', notes: ['slug status → kuma-status'] });
      expect(report.notes).toContainEqual({
        kind: 'monitor',
        name: 'Production',
        notes: ['upside down not kept: a group monitor is not checked'],
      });
      expect(report.notes.flatMap((entry) => entry.notes).filter((line) => /^(tags|description)\b/.test(line))).toEqual([]);
      expect(await monitors(app, admin)).toHaveLength(0);
    });

    it('imports monitors, channels, windows, the page, its incident and history in one run, with progress', async () => {
      first = await imported(app, admin, file(name), `?history=${history}&jobId=${jobId}`);
      expect(first.counts.create).toBeGreaterThan(20);
      expect(first.incidents).toEqual({ created: 1, existing: 0 });
      expect(first.history).toEqual({ monitors: 1, checks, days });
      const progress = await request(app.url).get(`/api/import/uptime-kuma/jobs/${jobId}`).set(admin.auth).expect(200);
      expect(progress.body).toEqual({ success: true, phase: 'done', percent: 100 });

      const list = await monitors(app, admin);
      const byName = (monitorName: string) => list.find((monitor) => monitor.name === monitorName)!;
      expect(list).toHaveLength(first.items.filter((item) => item.kind === 'monitor').length);
      expect(byName('Website')).toMatchObject({
        method: 'POST',
        expected_status: 2,
        parent_id: byName('Production').id,
        interval: 30,
        retries: 2,
      });
      expect(byName('Paused site').active).toBe(false);
      expect(byName('Nightly backup')).toMatchObject({ type: 'push', push_token: token });
      expect(byName('Welcome text').assertions).toEqual([{ source: 'body', operator: 'notContains', value: 'Welcome' }]);
      expect(byName('Broker')).toMatchObject({ type: 'mqtt', hostname: '127.0.0.1' });
      // Description, tags (tag + value) and upside-down mode come along (issue 34: a lossless import).
      expect(byName('Website')).toMatchObject({ description: 'The public site', tags: ['env:prod', 'critical'], upside_down: false });
      expect(byName('Orders DB').tags).toEqual(['env:prod']);
      expect(byName('Production')).toMatchObject({ description: 'Everything customers see', tags: [], upside_down: false });
      expect(byName('SSH')).toMatchObject({ type: 'tcp', upside_down: true });
      const tagged = await request(app.url).get('/api/monitors?tag=env:prod').set(admin.auth).expect(200);
      expect(tagged.body.monitors.map((monitor: MonitorDto) => monitor.name).sort()).toEqual(['Orders DB', 'Website']);

      const windows = (await request(app.url).get('/api/maintenance').set(admin.auth).expect(200)).body.maintenance as MaintenanceDto[];
      expect(windows.find((window) => window.title === 'Move racks')).toMatchObject({
        strategy: 'single',
        timezone: 'Europe/Berlin',
        start_at: '2030-01-05T21:00:00.000Z',
        pages: ['kuma-status'],
      });
      expect(windows.find((window) => window.title === 'Weekly patching')).toMatchObject({
        strategy: 'weekly',
        weekdays: [0, 3],
        start_time: '02:00',
      });
      expect(windows.find((window) => window.title === 'Month end')).toMatchObject({ strategy: 'monthly', days_of_month: [1, 'last'] });

      const page = (await request(app.url).get('/api/status-pages/kuma-status').set(admin.auth).expect(200)).body.page;
      expect(page).toMatchObject({ title: 'Acme status', footer: 'Run by Acme ops', customCss: '.title { color: red; }' });
      expect(page.groups.map((group: { name: string }) => group.name)).toEqual(['Services', 'Data']);
    });

    it('creates nothing on a re-run', async () => {
      const before = await monitors(app, admin);
      const again = await imported(app, admin, file(name), `?history=${history}`);
      expect(again.items.filter((item) => item.action !== 'unchanged')).toEqual([]);
      expect(again.incidents).toEqual({ created: 0, existing: 1 });
      expect(again.history).toEqual({ monitors: 0, checks: 0, days: 0 });
      expect((await monitors(app, admin)).map((monitor) => monitor.id)).toEqual(before.map((monitor) => monitor.id));
    });

    it('answers the push URL a cron job called on Kuma', async () => {
      const { body } = await request(app.url).get(`/api/push/${token}?status=up&msg=OK&ping=`).expect(200);
      expect(body).toMatchObject({ success: true, ok: true });
    });

    it('delivers through the imported channels with their secrets', async () => {
      const channels = (await request(app.url).get('/api/notifications').set(admin.auth).expect(200)).body.data.channels as Array<{
        id: number;
        name: string;
      }>;
      fake.clear();
      for (const channelName of ['Ops hook', 'Telegram']) {
        const { id } = channels.find((channel) => channel.name === channelName)!;
        await request(app.url).post(`/api/notifications/channels/${id}/test`).set(admin.auth).expect(200);
      }
      expect(fake.of('webhook', '/kuma-hook')[0].headers['x-token']).toBe('hook-secret');
      expect(fake.of('telegram')[0]).toMatchObject({
        path: `/bot${BOT_TOKEN}/sendMessage`,
        json: expect.objectContaining({ chat_id: '-1001234567890' }),
      });
    });

    it('never logs a secret from the file', () => {
      for (const secret of SECRETS) expect(app.output()).not.toContain(secret);
    });
  });

  describe('Kuma 1.x JSON backup and bad files', () => {
    let app: TestApp;
    let admin: Session;
    let member: Session;

    beforeAll(async () => {
      app = await startTestApp({ env: USERS_REACH_LOOPBACK });
      admin = await registerFirstAdmin(app.url);
      member = await createUser(app.url, admin);
    }, 120_000);

    afterAll(async () => {
      await app?.destroy();
    }, 60_000);

    it.each([
      ['an empty upload', Buffer.alloc(0), 'The upload is empty'],
      ['a text file', Buffer.from('name,url\nsite,https://example.com\n'), 'not an Uptime Kuma database'],
      ['JSON that is not a backup', Buffer.from('{"monitors":[]}'), 'not an Uptime Kuma database'],
      ['a truncated database', () => file('kuma-2.db').subarray(0, 40_960), 'cut short or damaged'],
      ['an encrypted database', Buffer.from(Uint8Array.from({ length: 8192 }, (_, i) => (i * 2_654_435_761) >>> 24)), 'encrypted'],
      [
        'a backup of an unknown version',
        Buffer.from('{"version":"2.0.0","notificationList":[],"monitorList":[]}'),
        'version is not supported',
      ],
    ])('refuses %s with one line and imports nothing', async (_name, bytes, text) => {
      const body = typeof bytes === 'function' ? bytes() : bytes;
      const { body: answer } = await upload(app, admin, Buffer.from(body)).expect(400);
      expect(answer).toMatchObject({ success: false, message: expect.stringContaining(text) });
      expect(answer.message).not.toContain('\n');
      expect(await monitors(app, admin)).toHaveLength(0);
    });

    it('refuses a member', async () => {
      await upload(app, member, file('kuma-1.23-backup.json'), '?dryRun=true').expect(403);
    });

    it('imports a JSON backup sent as a multipart form, as curl -F sends it', async () => {
      const { body } = await request(app.url)
        .post('/api/import/uptime-kuma')
        .set(admin.auth)
        .attach('file', file('kuma-1.23-backup.json'), 'Uptime_Kuma_Backup.json')
        .expect(201);
      const report = body.report as KumaImportReport;
      expect(report.source).toBe('kuma-backup');
      const list = await monitors(app, admin);
      expect(list.find((monitor) => monitor.name === 'Nightly backup')).toMatchObject({ push_token: TOKENS.v1 });
      expect(list.find((monitor) => monitor.name === 'Website')?.parent_id).toBe(list.find((monitor) => monitor.name === 'Production')?.id);
      expect(list.find((monitor) => monitor.name === 'Website')).toMatchObject({ tags: ['env:prod'], description: 'The public site' });
      expect(list.find((monitor) => monitor.name === 'SSH')?.upside_down).toBe(true);
    });
  });
});

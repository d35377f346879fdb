import { DomainEvents } from '../../src/events/domain-events.service';
import type { EventMap } from '../../src/events/event-map';
import { CheckPipeline } from '../../src/monitors/check-pipeline';
import { CheckResultsWriter } from '../../src/monitors/check-results.writer';
import type { PeerCertificate } from '../../src/monitors/checkers/checker';
import { createFields } from '../../src/monitors/monitor-fields';
import { toCheckTarget } from '../../src/monitors/monitor.mapper';
import type { CreateMonitorDto } from '../../src/monitors/monitors.dto';
import { MonitorsRepository, ResultInput } from '../../src/monitors/monitors.repository';
import { mediumDatabase, MediumDatabase, newMediumService, undoThrough } from './medium';

/**
 * Monitor types on PostgreSQL: the migration leaves existing monitors as they were, a push monitor's "no push"
 * verdict never overrides a push stored meanwhile, and the peer certificate seen by a check is kept.
 */
describe('monitor types', () => {
  let database: MediumDatabase;
  let writer: CheckResultsWriter;
  let repository: MonitorsRepository;
  let pipeline: CheckPipeline;
  let checked: Array<EventMap['monitor.checked']>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const medium = await newMediumService(CheckResultsWriter, database, { real: [MonitorsRepository, DomainEvents, CheckPipeline] });
    writer = medium.sut;
    repository = medium.get(MonitorsRepository);
    pipeline = medium.get(CheckPipeline);
    medium.get(DomainEvents).on('monitor.checked', { phase: 'commit', everyInstance: false }, (payload) => {
      checked.push(payload as EventMap['monitor.checked']);
    });
    close = medium.close;
  });
  afterAll(async () => {
    await close();
    await database.close();
  });
  beforeEach(() => {
    checked = [];
  });

  const dataSource = () => database.dataSource;

  const create = async (body: Partial<CreateMonitorDto>) =>
    repository.insert(createFields({ name: 'm', ...body } as CreateMonitorDto), null);

  const result = (monitorId: number, patch: Partial<ResultInput>): ResultInput => ({
    monitorId,
    ok: true,
    statusCode: null,
    responseTime: 5,
    error: null,
    checkedAt: new Date(),
    rhythmNext: null,
    slotAt: null,
    ...patch,
  });

  it('migrates existing monitors to http with their behaviour unchanged, and back', async () => {
    const { dataSource } = database;
    // From before the first types' settings moved into one column: a row as the old columns stored it.
    await undoThrough(dataSource, 'FirstTypeSettings1765730000000');
    try {
      const [{ id }] = await dataSource.query(
        `INSERT INTO monitors (name, url, expected_status, headers) VALUES ('old', 'https://example.com/old', 3, '{"X-A":"1"}') RETURNING id`,
      );
      await dataSource.runMigrations({ transaction: 'each' });
      const row = await repository.findById(id);
      expect(row).toMatchObject({
        type: 'http',
        url: 'https://example.com/old',
        expected_status: 3,
        headers: { 'X-A': '1' },
        settings: { ignoreTls: false, maxRedirects: 5 },
        assertions: [],
        cert_expiry_days: [14],
        push_token: null,
        certificate: null,
        hostname: null,
      });
      expect(toCheckTarget(row!)).toMatchObject({ type: 'http', url: 'https://example.com/old', expectedStatus: 3, maxRedirects: 5 });
    } finally {
      await dataSource.runMigrations({ transaction: 'each' });
    }
  });

  it('refuses two monitors with one push token and a type it does not know', async () => {
    const first = await create({ type: 'push' });
    const second = await create({ type: 'push' });
    await expect(dataSource().query(`UPDATE monitors SET push_token = $1 WHERE id = $2`, [first.push_token, second.id])).rejects.toThrow(
      /unique/i,
    );
    await expect(dataSource().query(`UPDATE monitors SET type = 'Not a type!' WHERE id = $1`, [second.id])).rejects.toThrow(/check/i);
  });

  it('finds a push monitor by its token only', async () => {
    const push = await create({ type: 'push' });
    expect((await repository.findByPushToken(push.push_token!))?.id).toBe(push.id);
    expect(await repository.findByPushToken('unknown-token-unknown-token-0000')).toBeNull();
  });

  const awaitedSince = async (id: number) => (await repository.findById(id))!.push_awaited_since;

  it('drops a "no push" verdict when a push was stored after the verdict was made', async () => {
    const push = await create({ type: 'push', retries: 0 });
    await dataSource().query(`UPDATE monitors SET push_awaited_since = now() - interval '10 minutes', status = 'up' WHERE id = $1`, [
      push.id,
    ]);
    // The verdict is made while the wait is 10 minutes old…
    const verdict = await pipeline.check(toCheckTarget((await repository.findById(push.id))!));
    expect(verdict).toMatchObject({ ok: false, error: 'No push received within 60 s', silentFor: 60 });
    // …a push arrives and is stored before the verdict is…
    await writer.record(result(push.id, { pushed: true }), { immediately: true });
    const stale = await writer.record(result(push.id, { ok: false, error: verdict.error, checkedAt: verdict.checkedAt, silentFor: 60 }), {
      immediately: true,
    });
    // …so the verdict is left out and the monitor stays up.
    expect(stale).toBeNull();
    expect((await repository.findById(push.id))!.status).toBe('up');
  });

  it('drops a "no push" verdict while the last push is recent, and for a monitor that is no longer a push monitor', async () => {
    const push = await create({ type: 'push', retries: 0 });
    await dataSource().query(`UPDATE monitors SET push_awaited_since = now() - interval '30 seconds', status = 'up' WHERE id = $1`, [
      push.id,
    ]);
    const silence = { ok: false, error: 'No push received within 60 s', silentFor: 60 };
    expect(await writer.record(result(push.id, silence), { immediately: true })).toBeNull();
    await dataSource().query(
      `UPDATE monitors SET type = 'tcp', hostname = '127.0.0.1', port = 1, push_token = NULL, push_awaited_since = NULL WHERE id = $1`,
      [push.id],
    );
    expect(await writer.record(result(push.id, silence), { immediately: true })).toBeNull();
    expect((await repository.findById(push.id))!.status).toBe('up');
  });

  it('drops the verdict when the push is in the same batch, whatever the order', async () => {
    const push = await create({ type: 'push', retries: 0 });
    await dataSource().query(`UPDATE monitors SET push_awaited_since = now() - interval '10 minutes', status = 'up' WHERE id = $1`, [
      push.id,
    ]);
    const late = new Date();
    const { recorded } = await repository.recordResults([
      result(push.id, { ok: false, error: 'No push received within 60 s', silentFor: 60, checkedAt: late }),
      result(push.id, { pushed: true, checkedAt: new Date(late.getTime() - 1000) }),
    ]);
    expect(recorded.map((r) => r.input.ok)).toEqual([true]);
    expect((await repository.findById(push.id))!.status).toBe('up');
  });

  it('stores a late verdict when no push came, and the next push recovers the monitor', async () => {
    const push = await create({ type: 'push', retries: 0 });
    await dataSource().query(`UPDATE monitors SET push_awaited_since = now() - interval '10 minutes', status = 'up' WHERE id = $1`, [
      push.id,
    ]);
    const verdict = await pipeline.check(toCheckTarget((await repository.findById(push.id))!));
    const stored = await writer.record(result(push.id, { ok: false, error: verdict.error, checkedAt: verdict.checkedAt, silentFor: 60 }), {
      immediately: true,
    });
    expect(stored?.monitor.status).toBe('down');
    const recovered = await writer.record(result(push.id, { pushed: true }), { immediately: true });
    expect(recovered?.monitor.status).toBe('up');
    expect(new Date((await awaitedSince(push.id))!).getTime()).toBe(recovered!.input.checkedAt.getTime());
  });

  it('keeps what a result older than the stored state saw: its push starts the wait, its certificate is kept', async () => {
    const push = await create({ type: 'push', retries: 0 });
    const tls = await create({ type: 'tls', hostname: 'example.com' });
    const ahead = new Date(Date.now() + 60_000);
    await dataSource().query(
      `UPDATE monitors SET last_checked = $2, status = 'up', push_awaited_since = now() - interval '10 minutes' WHERE id = ANY($1::int[])`,
      [[push.id, tls.id], ahead],
    );
    const pushedAt = new Date();
    const certificate: PeerCertificate = {
      subject: 'CN=example.com',
      issuer: 'CN=Test CA',
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      fingerprint: 'CC',
      authorizationError: null,
    };
    const { recorded } = await repository.recordResults([
      result(push.id, { pushed: true, checkedAt: pushedAt }),
      result(tls.id, { certificate, checkedAt: pushedAt }),
    ]);
    // Both are history only (the state is newer), yet what they saw is stored.
    expect(recorded.map((r) => r.monitor.last_checked)).toEqual([ahead, ahead]);
    expect(new Date((await awaitedSince(push.id))!).getTime()).toBe(pushedAt.getTime());
    expect((await repository.findById(tls.id))!.certificate).toMatchObject({ fingerprint: 'CC' });
  });

  it('keeps the newest peer certificate seen and raises it with the check', async () => {
    const tls = await create({ type: 'tls', hostname: 'example.com' });
    const certificate = (days: number, fingerprint: string): PeerCertificate => ({
      subject: 'CN=example.com',
      issuer: 'CN=Test CA',
      expiresAt: new Date(Date.now() + days * 86_400_000 + 3_600_000),
      fingerprint,
      authorizationError: null,
    });
    const now = Date.now();
    await repository.recordResults([
      result(tls.id, { certificate: certificate(30, 'AA'), checkedAt: new Date(now - 1000) }),
      result(tls.id, { certificate: certificate(5, 'BB'), checkedAt: new Date(now) }),
      result(tls.id, { certificate: null, checkedAt: new Date(now + 1) }),
    ]);
    const row = (await repository.findById(tls.id))!;
    expect(row.certificate).toMatchObject({ subject: 'CN=example.com', issuer: 'CN=Test CA', fingerprint: 'BB' });
    expect(checked.map((c) => c.certificate?.fingerprint ?? null)).toEqual(['AA', 'BB', null]);
    expect(checked.at(-1)!.monitor.certificate).toMatchObject({ days_remaining: 5 });
  });
});

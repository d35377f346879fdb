import type { MonitorStatus } from '@vigil/proto';
import { DomainEvents } from '../../src/events/domain-events.service';
import type { EventMap } from '../../src/events/event-map';
import { CheckResultsWriter } from '../../src/monitors/check-results.writer';
import { MonitorFields, MonitorsRepository, ResultInput } from '../../src/monitors/monitors.repository';
import { httpMonitorFields } from '../../src/monitors/monitor-fixtures.testing';
import { TRANSITION_TABLE } from '../../src/monitors/transition-table.testing';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const FIELDS: MonitorFields = httpMonitorFields({ retries: 1 });

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/**
 * The monitor state machine as it runs in production: results through the batch writer into the real repository,
 * on PostgreSQL, with the rows locked while the machine decides. Events are faked and counted.
 */
describe('monitor transitions', () => {
  let database: MediumDatabase;
  let writer: CheckResultsWriter;
  let repository: MonitorsRepository;
  /** Events heard after commit, as `[name, payload]`. */
  let emitted: Array<[string, EventMap['monitor.status_changed']]>;
  let transitions: Array<EventMap['monitor.status_changed']>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const medium = await newMediumService(CheckResultsWriter, database, { real: [MonitorsRepository, DomainEvents] });
    writer = medium.sut;
    repository = medium.get(MonitorsRepository);
    const events = medium.get(DomainEvents);
    // Listeners after commit count what they hear.
    for (const name of ['monitor.checked', 'monitor.status_changed'] as const)
      events.on(name, { phase: 'commit', everyInstance: false }, (payload) => {
        emitted.push([name, payload as EventMap['monitor.status_changed']]);
      });
    // A listener inside the writing transaction (what the notification outbox listens to).
    events.on('monitor.status_changed', { phase: 'transaction', everyInstance: false }, (payload) => {
      transitions.push(...(payload as Array<EventMap['monitor.status_changed']>));
    });
    close = medium.close;
  });
  afterAll(async () => {
    await close();
    await database.close();
  });
  beforeEach(() => {
    emitted = [];
    transitions = [];
  });

  async function monitor(patch: Partial<MonitorFields> = {}, state: { status?: MonitorStatus; failures?: number } = {}) {
    const row = await repository.insert({ ...FIELDS, ...patch }, at(60));
    await database.dataSource.query(`UPDATE monitors SET status = $2, consecutive_failures = $3, last_checked = $4 WHERE id = $1`, [
      row.id,
      state.status ?? 'up',
      state.failures ?? 0,
      at(0),
    ]);
    return row.id;
  }

  function result(monitorId: number, ok: boolean, seconds: number, patch: Partial<ResultInput> = {}): ResultInput {
    return {
      monitorId,
      ok,
      statusCode: ok ? 200 : null,
      responseTime: ok ? 15 : null,
      error: ok ? null : 'Connection refused',
      checkedAt: at(seconds),
      rhythmNext: at(120),
      ...patch,
    };
  }

  const stored = async (id: number) =>
    (
      await database.dataSource.query(
        `SELECT status, consecutive_failures AS failures, last_checked, next_check_at,
                (SELECT count(*)::int FROM monitor_checks WHERE monitor_id = $1) AS checks
         FROM monitors WHERE id = $1`,
        [id],
      )
    )[0];
  const changes = (id: number) =>
    emitted.filter(([name, payload]) => name === 'monitor.status_changed' && payload.monitor.id === id).map(([, p]) => p.status);
  const hooked = (id: number) => transitions.filter((t) => t.monitor.id === id).map((t) => `${t.previous}→${t.status}`);

  it.each(TRANSITION_TABLE)(
    '%s with %s failures, ok=%s, retries=%s → %s (%s)',
    async (status, failures, ok, retries, next, nextFailures) => {
      const id = await monitor({ retries }, { status, failures });
      const recorded = await writer.record(result(id, ok, 30));
      expect(recorded?.previous).toBe(status);
      expect(await stored(id)).toMatchObject({ status: next, failures: nextFailures, checks: 1, last_checked: at(30) });
      const expected = status === next ? [] : [next];
      expect(changes(id)).toEqual(expected);
      expect(hooked(id)).toEqual(expected.map((s) => `${status}→${s}`));
    },
  );

  it('goes up → pending for the retries → down, then back up, raising each transition once', async () => {
    const id = await monitor({ retries: 2 });
    await writer.record(result(id, false, 10));
    // Pending: re-checked at the retry interval (20 s), not on the regular slot.
    expect(await stored(id)).toMatchObject({ status: 'pending', failures: 1, next_check_at: at(30) });
    await writer.record(result(id, false, 30));
    expect(await stored(id)).toMatchObject({ status: 'pending', failures: 2, next_check_at: at(50) });
    await writer.record(result(id, false, 50));
    expect(await stored(id)).toMatchObject({ status: 'down', failures: 3, next_check_at: at(120) });
    await writer.record(result(id, false, 120));
    await writer.record(result(id, true, 180));
    expect(await stored(id)).toMatchObject({ status: 'up', failures: 0, checks: 5 });
    expect(changes(id)).toEqual(['pending', 'down', 'up']);
    expect(hooked(id)).toEqual(['up→pending', 'pending→down', 'down→up']);
  });

  it('with retries 0 goes straight down', async () => {
    const id = await monitor({ retries: 0 });
    await writer.record(result(id, false, 10));
    expect(await stored(id)).toMatchObject({ status: 'down', failures: 1 });
    expect(changes(id)).toEqual(['down']);
  });

  it('hands the outbox and the pushes the same transition, with the credentials in its URL masked', async () => {
    const id = await monitor({ retries: 0, url: 'https://ops:hunter2@shop.example.com/health' });
    await writer.record(result(id, false, 10));
    const pushed = emitted.find(([name, payload]) => name === 'monitor.status_changed' && payload.monitor.id === id)?.[1];
    expect(transitions.filter((t) => t.monitor.id === id)).toEqual([pushed]);
    expect(pushed?.monitor.url).toBe('https://••••••••@shop.example.com/health');
  });

  it('ignores a scheduled result of a monitor paused meanwhile, but stores a manual check of it', async () => {
    const id = await monitor({ active: false });
    expect(await writer.record(result(id, false, 10, { slotAt: at(10) }))).toBeNull();
    expect(await stored(id)).toMatchObject({ status: 'up', failures: 0, checks: 0 });
    expect(emitted).toEqual([]);

    const manual = await writer.record(result(id, true, 20, { slotAt: null }));
    expect(manual?.monitor.status).toBe('up');
    expect(await stored(id)).toMatchObject({ checks: 1, last_checked: at(20) });
  });

  it('decides two results of one monitor in one batch once each, oldest first', async () => {
    const id = await monitor();
    // Handed over newest first, as two overlapping checks can finish.
    const { recorded } = await repository.recordResults([result(id, false, 40), result(id, false, 30)]);
    expect(recorded.map((r) => [r.input.checkedAt, r.previous, r.monitor.status])).toEqual([
      [at(30), 'up', 'pending'],
      [at(40), 'pending', 'down'],
    ]);
    expect(await stored(id)).toMatchObject({ status: 'down', failures: 2, checks: 2, last_checked: at(40) });
    expect(hooked(id)).toEqual(['up→pending', 'pending→down']);
  });

  it('decides results of one monitor in concurrent batches (several instances) once each, whatever the interleaving', async () => {
    const id = await monitor({ retries: 3 });
    const other = await monitor({ retries: 0 });
    // Ten batches at once, each locking both monitors (in both orders: no deadlock), one failure of each per batch,
    // all checked at the same moment so none is older than another.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const pair = [result(id, false, 10), result(other, false, 10)];
        return repository.recordResults(i % 2 ? pair : pair.reverse());
      }),
    );
    expect(await stored(id)).toMatchObject({ status: 'down', failures: 10, checks: 10 });
    expect(await stored(other)).toMatchObject({ status: 'down', failures: 10, checks: 10 });
    expect(hooked(id)).toEqual(['up→pending', 'pending→down']);
    expect(hooked(other)).toEqual(['up→down']);
  });

  it('applies concurrent batches in check order: a result older than one already stored moves nothing', async () => {
    const id = await monitor({ retries: 3 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => repository.recordResults([result(id, false, 10 + i)])));
    const recorded = outcomes.flatMap((o) => o.recorded);
    const applied = recorded.filter((r) => r.monitor.last_checked?.getTime() === r.input.checkedAt.getTime());
    // Which ones count depends on the commit order; the newest always does, and the state agrees with what counted.
    expect(applied.map((r) => r.input.checkedAt)).toContainEqual(at(19));
    const failures = applied.length;
    expect(await stored(id)).toMatchObject({ status: failures > 3 ? 'down' : 'pending', failures, checks: 10, last_checked: at(19) });
    expect(hooked(id)).toEqual(failures > 3 ? ['up→pending', 'pending→down'] : ['up→pending']);
  });

  it('keeps a check older than the last stored one in the history without moving the status', async () => {
    const id = await monitor();
    await writer.record(result(id, true, 40));
    const late = await writer.record(result(id, false, 30));
    expect(late).toMatchObject({ previous: 'up', monitor: { status: 'up', last_checked: at(40) } });
    expect(await stored(id)).toMatchObject({ status: 'up', failures: 0, checks: 2, last_checked: at(40) });
    expect(changes(id)).toEqual([]);
  });

  it('stores a re-run of one scheduled slot once, even when two instances store it at the same time', async () => {
    const id = await monitor();
    const slotAt = at(30);
    const [a, b] = await Promise.all([
      repository.recordResults([result(id, false, 31, { slotAt })]),
      repository.recordResults([result(id, false, 32, { slotAt })]),
    ]);
    expect(a.recorded.length + b.recorded.length).toBe(1);
    expect(await stored(id)).toMatchObject({ status: 'pending', failures: 1, checks: 1 });
    expect(hooked(id)).toEqual(['up→pending']);
  });
});

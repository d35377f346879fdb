import { setTimeout as sleep } from 'node:timers/promises';
import { afterFailure } from '../../src/notifications/delivery';
import { NotificationsRepository } from '../../src/notifications/notifications.repository';
import { OutboxRepository, type AttemptRecord, type OutboxItem } from '../../src/notifications/outbox.repository';
import { DeliveryError } from '../../src/notifications/providers';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const LEASE_MS = 60_000;
const failedAttempt: AttemptRecord = { ok: false, httpStatus: 502, detail: 'Bad gateway', durationMs: 12 };
const sentAttempt: AttemptRecord = { ok: true, httpStatus: 200, detail: 'ok', durationMs: 8 };

describe(OutboxRepository.name, () => {
  let database: MediumDatabase;
  let sut: OutboxRepository;
  let channelId: number;
  let close: () => Promise<void>;
  let sequence = 0;

  beforeAll(async () => {
    database = await mediumDatabase();
    const service = await newMediumService(OutboxRepository, database, { real: [NotificationsRepository] });
    ({ sut, close } = service);
    channelId = await service.get(NotificationsRepository).insertChannel({
      name: 'Ops hook',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
      enabled: true,
      language: 'en-US',
      // Single-row claims are proven here; grouping channels are claimed by claimGroups (below).
      group_wait_seconds: 0,
    });
  });
  beforeEach(() => database.dataSource.query(`DELETE FROM notification_outbox`));
  afterAll(async () => {
    await close();
    await database.close();
  });

  const item = (): OutboxItem => {
    sequence += 1;
    return {
      dedup_key: `monitor:${sequence}:status:1:open:${channelId}`,
      channel_id: channelId,
      channel_name: 'Ops hook',
      channel_type: 'webhook',
      event: 'monitor.down',
      target_kind: 'monitor',
      target_id: sequence,
      target_name: `Monitor ${sequence}`,
      message: {
        event: 'monitor.down',
        severity: 'alert',
        subject: `Monitor ${sequence} is down`,
        text: 'Connection refused',
        target: { kind: 'monitor', id: sequence, name: `Monitor ${sequence}` },
        at: new Date().toISOString(),
      },
    };
  };
  const enqueue = (items: OutboxItem[]) => database.dataSource.transaction((manager) => sut.enqueue(manager, items));
  const row = async (id: number) =>
    (
      await database.dataSource.query(
        `SELECT status, attempts, locked_until, sent_at, last_error, next_attempt_at > now() AS later FROM notification_outbox WHERE id = $1`,
        [id],
      )
    )[0];

  it('writes a deduplication key once, however often the event is recorded', async () => {
    const items = [item(), item()];
    expect(await enqueue(items)).toBe(2);
    expect(await enqueue(items)).toBe(0);
    expect(await database.dataSource.query(`SELECT count(*)::int AS n FROM notification_outbox`)).toEqual([{ n: 2 }]);
  });

  it('claims at most the free places of each channel, so one slow destination cannot take every slot', async () => {
    const other = await database.dataSource.query(
      `INSERT INTO notification_channels (name, type, config, group_wait_seconds) VALUES ('Other', 'webhook', '{"url":"http://127.0.0.1:9/other"}', 0) RETURNING id`,
    );
    const otherId: number = other[0].id;
    await enqueue([...Array.from({ length: 10 }, item), ...Array.from({ length: 3 }, () => ({ ...item(), channel_id: otherId }))]);

    const first = await sut.claim(20, LEASE_MS, 4);
    expect(first.filter((row) => row.channelId === channelId)).toHaveLength(4);
    expect(first.filter((row) => row.channelId === otherId)).toHaveLength(3);

    // Two of the first channel's attempts still in flight: two more places, no more.
    const second = await sut.claim(20, LEASE_MS, 4, new Map([[channelId, 2]]));
    expect(second.map((row) => row.channelId)).toEqual([channelId, channelId]);
    // The oldest due of a channel go first.
    expect(Math.min(...second.map((row) => row.id))).toBeGreaterThan(
      Math.max(...first.filter((row) => row.channelId === channelId).map((row) => row.id)),
    );
  });

  it('hands each due row to one of several dispatchers claiming at the same time', async () => {
    await enqueue(Array.from({ length: 40 }, item));
    const rounds = await Promise.all([sut.claim(10, LEASE_MS), sut.claim(10, LEASE_MS), sut.claim(10, LEASE_MS), sut.claim(10, LEASE_MS)]);
    const leftover = await sut.claim(40, LEASE_MS);
    const ids = [...rounds.flat(), ...leftover].map((delivery) => delivery.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect([...rounds.flat(), ...leftover].every((delivery) => delivery.attempts === 1)).toBe(true);
  });

  it('does not hand out a row again while its lease runs', async () => {
    await enqueue([item()]);
    expect(await sut.claim(5, LEASE_MS)).toHaveLength(1);
    expect(await sut.claim(5, LEASE_MS)).toEqual([]);
  });

  it('hands a row whose lease expired (its dispatcher died) to the next claim, counting the attempt', async () => {
    await enqueue([item()]);
    const [first] = await sut.claim(5, 1);
    await sleep(20);
    const again = await sut.claim(5, LEASE_MS);
    expect(again.map((delivery) => [delivery.id, delivery.attempts])).toEqual([[first.id, 2]]);
  });

  it('comes with the channel as it is now, or none once the channel was deleted', async () => {
    const orphan = await database.dataSource.transaction(async (manager) => {
      const other = await manager.query(
        `INSERT INTO notification_channels (name, type, config, enabled, language, group_wait_seconds) VALUES ('Gone', 'webhook', '{}', true, 'en-US', 0) RETURNING id`,
      );
      return { ...item(), channel_id: other[0].id as number };
    });
    await enqueue([item(), orphan]);
    await database.dataSource.query(`DELETE FROM notification_channels WHERE id = $1`, [orphan.channel_id]);
    const claimed = await sut.claim(5, LEASE_MS);
    expect(claimed.map((delivery) => delivery.channel)).toEqual([
      { type: 'webhook', config: { url: 'http://127.0.0.1:9/hook' }, enabled: true, language: 'en-US' },
      null,
    ]);
  });

  it('never claims a delivered or given-up row again, and records each attempt', async () => {
    await enqueue([item(), item()]);
    const [sent, failed] = await sut.claim(5, 1);
    await sut.finish(sent.id, sent.attempts, sentAttempt, { status: 'sent' });
    await sut.finish(failed.id, failed.attempts, failedAttempt, { status: 'failed' });
    await sleep(20);
    expect(await sut.claim(5, LEASE_MS)).toEqual([]);
    expect(await row(sent.id)).toMatchObject({ status: 'sent', attempts: 1, locked_until: null, last_error: null });
    expect((await row(sent.id)).sent_at).toBeInstanceOf(Date);
    expect(await row(failed.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      locked_until: null,
      sent_at: null,
      last_error: 'Bad gateway',
    });
    const attempts = await database.dataSource.query(
      `SELECT outbox_id::int AS id, attempt, ok, http_status, detail, duration_ms FROM notification_attempts
       WHERE outbox_id = ANY($1::bigint[]) ORDER BY outbox_id`,
      [[sent.id, failed.id]],
    );
    expect(attempts).toEqual([
      { id: sent.id, attempt: 1, ok: true, http_status: 200, detail: 'ok', duration_ms: 8 },
      { id: failed.id, attempt: 1, ok: false, http_status: 502, detail: 'Bad gateway', duration_ms: 12 },
    ]);
  });

  it('keeps a retry back until its backoff has passed, then claims it with the next attempt number', async () => {
    await enqueue([item(), item()]);
    const [later, soon] = await sut.claim(5, LEASE_MS);
    await sut.finish(later.id, later.attempts, failedAttempt, { status: 'retry', delayMs: 60_000 });
    await sut.finish(soon.id, soon.attempts, failedAttempt, { status: 'retry', delayMs: 50 });
    expect(await row(later.id)).toMatchObject({ status: 'pending', locked_until: null, later: true, last_error: 'Bad gateway' });
    await sleep(100);
    const retried = await sut.claim(5, LEASE_MS);
    expect(retried.map((delivery) => [delivery.id, delivery.attempts])).toEqual([[soon.id, 2]]);
  });

  it('gives a row up after the last attempt the backoff allows', async () => {
    const maxAttempts = 3;
    await enqueue([item()]);
    const outcomes: string[] = [];
    for (;;) {
      const [delivery] = await sut.claim(1, LEASE_MS);
      if (!delivery) break;
      const outcome = afterFailure(new DeliveryError('Bad gateway', 502), delivery.attempts, maxAttempts, 1);
      outcomes.push(outcome.status);
      await sut.finish(delivery.id, delivery.attempts, failedAttempt, outcome);
      await sleep(20);
    }
    expect(outcomes).toEqual(['retry', 'retry', 'failed']);
    const [{ status, attempts }] = await database.dataSource.query(`SELECT status, attempts FROM notification_outbox`);
    expect({ status, attempts }).toEqual({ status: 'failed', attempts: maxAttempts });
  });

  describe('storm grouping (claimGroups)', () => {
    /** A "second" of the grouping windows, in ms. */
    const SECOND = 50;
    let grouped: number;
    beforeAll(async () => {
      [{ id: grouped }] = await database.dataSource.query(
        `INSERT INTO notification_channels (name, type, config, group_wait_seconds, group_interval_seconds)
         VALUES ('Grouped', 'webhook', '{"url":"http://127.0.0.1:9/g"}', 10, 20) RETURNING id`,
      );
    });
    beforeEach(() => database.dataSource.query(`UPDATE notification_channels SET group_sent_at = NULL`));
    const storm = (n: number) => enqueue(Array.from({ length: n }, () => ({ ...item(), channel_id: grouped })));

    it('holds rows until the wait has passed, then hands them all as one delivery to one of several dispatchers', async () => {
      await storm(30);
      expect(await sut.claimGroups(LEASE_MS, SECOND, [], 10)).toEqual([]);
      expect(await sut.claim(50, LEASE_MS)).toEqual([]);
      await sleep(10 * SECOND + 100);
      const rounds = await Promise.all([0, 1, 2].map(() => sut.claimGroups(LEASE_MS, SECOND, [], 10)));
      const deliveries = rounds.flat();
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].group).toHaveLength(30);
      await sut.finishGroup(deliveries[0].group!, { ok: true, httpStatus: 200, detail: 'OK', durationMs: 5 }, { status: 'sent' });
      const [{ sent }] = await database.dataSource.query(
        `SELECT count(*)::int AS sent FROM notification_outbox WHERE channel_id = $1 AND status = 'sent'`,
        [grouped],
      );
      expect(sent).toBe(30);
    });

    it('after a combined message, waits the interval before the next', async () => {
      await storm(2);
      await sleep(10 * SECOND + 100);
      const [first] = await sut.claimGroups(LEASE_MS, SECOND, [], 10);
      expect(first.group).toHaveLength(2);
      await storm(1);
      await sleep(10 * SECOND + 100);
      // Past the wait, not yet the interval (20 "seconds" after the first message).
      expect(await sut.claimGroups(LEASE_MS, SECOND, [], 10)).toEqual([]);
      await sleep(12 * SECOND);
      const [next] = await sut.claimGroups(LEASE_MS, SECOND, [], 10);
      expect(next.group).toBeUndefined();
      expect(next.channelId).toBe(grouped);
    });

    it('skips a channel whose places are all taken', async () => {
      await storm(2);
      await sleep(10 * SECOND + 100);
      expect(await sut.claimGroups(LEASE_MS, SECOND, [grouped], 10)).toEqual([]);
    });
  });
});

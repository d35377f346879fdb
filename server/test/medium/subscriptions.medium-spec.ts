import type { IncidentDto, MaintenanceDto } from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import { SubscriptionDeliveriesRepository } from '../../src/subscriptions/subscription-deliveries.repository';
import { SubscriptionDispatcher } from '../../src/subscriptions/subscription-dispatcher.service';
import { hashToken, randomToken, unsubscribeToken } from '../../src/subscriptions/subscription-tokens';
import { SubscriptionsListener } from '../../src/subscriptions/subscriptions.listener';
import { SubscriptionsRepository } from '../../src/subscriptions/subscriptions.repository';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const KEY = randomBytes(32);
const LEASE_MS = 60_000;

/**
 * The subscriptions' rules that live in SQL, on a real PostgreSQL: double opt-in and its resend interval, the
 * fan-out of a notice to confirmed subscribers only and once per key, and claims that never hand one delivery to two
 * instances. The incident and maintenance events go through the listener as the bus delivers them.
 */
describe('status page subscriptions (medium)', () => {
  let database: MediumDatabase;
  let sut: SubscriptionsListener;
  let subscribers: SubscriptionsRepository;
  let deliveries: SubscriptionDeliveriesRepository;
  let nudge: jest.Mock;
  let close: () => Promise<void>;
  let pageId: number;
  let otherPageId: number;
  let monitorIds: number[];
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => database.dataSource.query<T[]>(text, params);

  beforeAll(async () => {
    database = await mediumDatabase();
    const service = await newMediumService(SubscriptionsListener, database, {
      real: [SubscriptionsRepository, SubscriptionDeliveriesRepository],
    });
    ({ sut, close } = service);
    subscribers = service.get(SubscriptionsRepository);
    deliveries = service.get(SubscriptionDeliveriesRepository);
    nudge = service.get(SubscriptionDispatcher).nudge as jest.Mock;
    // A group monitor with one member, and a monitor of its own; the page shows the member and the single one.
    const [group] = await sql<{ id: number }>(`INSERT INTO monitors (name, url, type) VALUES ('Backend', '', 'group') RETURNING id`);
    const monitors = await sql<{ id: number }>(
      `INSERT INTO monitors (name, url, parent_id) VALUES ('API', 'https://api.example.com/', $1), ('Web', 'https://www.example.com/', NULL) RETURNING id`,
      [group.id],
    );
    monitorIds = [group.id, ...monitors.map((row) => row.id)];
    [{ id: pageId }] = await sql<{ id: number }>(
      `INSERT INTO status_pages (slug, title, subscribe_webhooks) VALUES ('shop', 'Shop', true) RETURNING id`,
    );
    [{ id: otherPageId }] = await sql<{ id: number }>(`INSERT INTO status_pages (slug, title) VALUES ('other', 'Other') RETURNING id`);
    await sql(`INSERT INTO status_page_groups (page_id, position, name) VALUES ($1, 0, '')`, [pageId]);
    await sql(`INSERT INTO status_page_components (page_id, group_position, position, monitor_id) VALUES ($1, 0, 0, $2), ($1, 0, 1, $3)`, [
      pageId,
      monitorIds[2],
      monitorIds[1],
    ]);
  });
  beforeEach(async () => {
    await sql(`DELETE FROM status_page_subscribers`);
    await sql(`DELETE FROM status_page_notices`);
    nudge.mockClear();
  });
  afterAll(async () => {
    await close();
    await database.close();
  });

  const request = (address: string, page = pageId) =>
    subscribers.request({
      pageId: page,
      kind: 'webhook',
      address,
      baseUrl: 'https://status.example.com',
      unsubscribeHash: (id) => hashToken(unsubscribeToken(KEY, id)),
    });
  const pending = () =>
    sql<{ subscriber_id: number; notice_id: string | null }>(
      `SELECT subscriber_id, notice_id FROM status_page_deliveries WHERE status = 'pending' ORDER BY id`,
    );
  const idOf = async (address: string) =>
    (await sql<{ id: number }>(`SELECT id FROM status_page_subscribers WHERE address = $1`, [address]))[0].id;

  async function confirmed(address: string, page = pageId): Promise<number> {
    await request(address, page);
    const id = await idOf(address);
    const token = randomToken();
    await subscribers.setConfirmToken(id, hashToken(token));
    expect(await subscribers.confirm(hashToken(token))).toBe(page === pageId ? 'shop' : 'other');
    await sql(`DELETE FROM status_page_deliveries WHERE subscriber_id = $1`, [id]);
    return id;
  }

  function incident(overrides: Partial<IncidentDto> = {}): IncidentDto {
    return {
      id: 40,
      title: 'Checkout errors',
      impact: 'major',
      status: 'investigating',
      published: true,
      monitors: [monitorIds[1]],
      agents: [],
      pages: ['shop'],
      updates: [
        {
          id: 400,
          status: 'investigating',
          message: 'Looking',
          html: '<p>Looking</p>',
          created_at: '2026-03-01T10:00:00.000Z',
          author: 'alice',
        },
      ],
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
      resolved_at: null,
      ...overrides,
    };
  }

  describe('double opt-in', () => {
    it('queues one confirmation for a new address, none when asked again within the interval, one again after it', async () => {
      expect(await request('https://hooks.example.com/a')).toBe(true);
      expect(await request('https://hooks.example.com/a')).toBe(false);
      const id = await idOf('https://hooks.example.com/a');
      expect(await pending()).toEqual([{ subscriber_id: id, notice_id: null }]);

      await sql(`UPDATE status_page_subscribers SET confirm_requested_at = now() - interval '11 minutes'`);
      expect(await request('https://hooks.example.com/a')).toBe(true);
      // The new request replaces the one still waiting.
      expect(await pending()).toEqual([{ subscriber_id: id, notice_id: null }]);
    });

    it('never asks a confirmed address again, and a confirmation link works until the request expires', async () => {
      const id = await confirmed('https://hooks.example.com/b');
      await sql(`UPDATE status_page_subscribers SET confirm_requested_at = now() - interval '1 day'`);
      expect(await request('https://hooks.example.com/b')).toBe(false);
      expect(await pending()).toEqual([]);

      await request('https://hooks.example.com/late');
      const late = await idOf('https://hooks.example.com/late');
      const token = randomToken();
      await subscribers.setConfirmToken(late, hashToken(token));
      await sql(`UPDATE status_page_subscribers SET confirm_requested_at = now() - interval '8 days' WHERE id = $1`, [late]);
      expect(await subscribers.confirm(hashToken(token))).toBeNull();
      expect(await subscribers.pruneUnconfirmed()).toBe(1);
      expect(await subscribers.setConfirmToken(id, hashToken(randomToken()))).toBe(false);
    });

    it('unsubscribes by the hash of the derived token, once', async () => {
      const id = await confirmed('https://hooks.example.com/c');
      const hash = hashToken(unsubscribeToken(KEY, id));
      expect(await subscribers.unsubscribe(hash)).toBe('shop');
      expect(await subscribers.unsubscribe(hash)).toBeNull();
    });
  });

  describe('notices', () => {
    it('go to the confirmed subscribers of the pages showing the incident, once per update', async () => {
      const fan = await confirmed('https://hooks.example.com/fan');
      await request('https://hooks.example.com/unconfirmed');
      await confirmed('https://hooks.example.com/elsewhere', otherPageId);
      await sql(`DELETE FROM status_page_deliveries`);

      await sut.incidentChanged({ action: 'created', incident: incident(), pageIds: [pageId, otherPageId], slugs: ['shop', 'other'] });
      await sut.incidentChanged({ action: 'updated', incident: incident({ title: 'Renamed' }), pageIds: [pageId], slugs: ['shop'] });

      const rows = await pending();
      expect(rows.map((row) => row.subscriber_id)).toEqual([fan]);
      expect(nudge).toHaveBeenCalledTimes(1);
      const [notice] = await sql<{ dedup_key: string; payload: { type: string; incident: { components: string[] } } }>(
        `SELECT dedup_key, payload FROM status_page_notices`,
      );
      expect(notice.dedup_key).toBe(`incident:40:update:400:page:${pageId}`);
      expect(notice.payload).toMatchObject({ type: 'incident.created', incident: { components: ['API'] } });
    });

    it('name a window scope by the page components it covers, a group covering its members', async () => {
      await confirmed('https://hooks.example.com/ops');
      const maintenance = {
        id: 7,
        title: 'Upgrade',
        description: '',
        enabled: true,
        phase: 'active',
        current: { start: '2026-03-10T02:00:00.000Z', end: null },
        scope: { all: false, monitors: [], agents: [], groups: [monitorIds[0]] },
        pages: ['shop'],
        updated_at: '2026-03-01T10:00:00.000Z',
      } as unknown as MaintenanceDto;

      await sut.maintenanceChanged({ action: 'started', maintenance, pageIds: [pageId] });
      await sut.maintenanceChanged({ action: 'started', maintenance, pageIds: [pageId] });

      const notices = await sql<{ payload: { type: string; maintenance: { components: string[] } } }>(
        `SELECT payload FROM status_page_notices`,
      );
      expect(notices.map((row) => row.payload)).toEqual([
        expect.objectContaining({ type: 'maintenance.started', maintenance: expect.objectContaining({ components: ['API'] }) }),
      ]);
      expect(await pending()).toHaveLength(1);
    });

    it('store nothing for a page nobody subscribed to', async () => {
      await sut.incidentChanged({ action: 'created', incident: incident({ pages: ['other'] }), pageIds: [otherPageId], slugs: ['other'] });
      expect(await sql(`SELECT id FROM status_page_notices`)).toEqual([]);
      expect(nudge).not.toHaveBeenCalled();
    });
  });

  describe('claims', () => {
    it('never give one delivery to two instances, and hand it over once its lease has run out', async () => {
      for (let n = 0; n < 30; n += 1) await request(`https://hooks.example.com/many/${n}`);
      const [first, second] = await Promise.all([deliveries.claim(20, LEASE_MS), deliveries.claim(20, LEASE_MS)]);
      const ids = [...first, ...second].map((row) => row.id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      expect(first[0]).toMatchObject({
        kind: 'webhook',
        page: { slug: 'shop', title: 'Shop' },
        notice: null,
        attempts: 1,
        confirmed: false,
      });
      expect(await deliveries.claim(10, LEASE_MS)).toEqual([]);

      await sql(`UPDATE status_page_deliveries SET locked_until = now() - interval '1 second' WHERE id = $1`, [first[0].id]);
      const [takenOver] = await deliveries.claim(10, LEASE_MS);
      expect(takenOver).toMatchObject({ id: first[0].id, attempts: 2 });
      // The first holder's late answer no longer moves the row; the new holder's does.
      await deliveries.finish(first[0].id, 1, { status: 'sent' });
      await deliveries.finish(first[0].id, 2, { status: 'retry', delayMs: 60_000, error: 'HTTP 503 Service Unavailable' });
      const [row] = await sql<{ status: string; last_error: string }>(
        `SELECT status, last_error FROM status_page_deliveries WHERE id = $1`,
        [first[0].id],
      );
      expect(row).toEqual({ status: 'pending', last_error: 'HTTP 503 Service Unavailable' });
      expect(await deliveries.claim(10, LEASE_MS)).toEqual([]);
    });
  });
});

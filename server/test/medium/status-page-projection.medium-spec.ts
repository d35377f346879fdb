import type { PageItemEvent, StatusPageData, StatusPageGroup } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../src/events/domain-events.service';
import { registerListeners } from '../../src/events/event-listeners';
import { SERVER_EVENTS, type ServerEventName } from '../../src/events/event-map';
import { CheckResultsWriter } from '../../src/monitors/check-results.writer';
import { HTTP_TYPE_FIELDS } from '../../src/monitors/monitor-fixtures.testing';
import { MonitorFields, MonitorsRepository } from '../../src/monitors/monitors.repository';
import { PagePushesListener } from '../../src/realtime/page-pushes.listener';
import { RealtimeGateway } from '../../src/realtime/realtime.gateway';
import { StatusAssets } from '../../src/status/status-assets';
import { BAR_DAYS, epochDay } from '../../src/status-pages/page-bars';
import { PageDataRepository } from '../../src/status-pages/page-data.repository';
import { PageDirectory } from '../../src/status-pages/page-directory';
import { PageProjections } from '../../src/status-pages/page-projections.service';
import { MonitorDaily } from '../../src/status-pages/monitor-daily';
import { PageStoriesSource } from '../../src/status-pages/page-stories';
import { StatusPagesListener } from '../../src/status-pages/status-pages.listener';
import { StatusPagesRepository } from '../../src/status-pages/status-pages.repository';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const monitorFields = (name: string): MonitorFields => ({
  ...HTTP_TYPE_FIELDS,
  name,
  url: `http://192.0.2.1/${name}`,
  method: 'GET',
  interval: 60,
  timeout: 10,
  expectedStatus: 200,
  headers: {},
  body: null,
  active: true,
  retries: 0,
  retryInterval: 60,
});

/** What an instance pushed to the sockets it holds, by room. */
function localGateway() {
  const pushes: Array<{ room: string; event: string; payload: unknown }> = [];
  const to = (room: string) => ({ emit: (event: string, payload?: unknown) => pushes.push({ room, event, payload }) });
  const local = { to, in: () => ({ socketsLeave: () => undefined }) };
  return { pushes, gateway: { server: { local, to } } };
}

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 150; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met within 3 s');
}

/** Without the clock's fields, two projections of one page compare equal. */
const comparable = (data: StatusPageData) => ({ ...data, updated_at: undefined });

/**
 * One projection per status page on two instances sharing one database: instance A stores the checks (real writer,
 * real listener), B hears only the server events A relays (as Redis carries them, through JSON). Both must hold the
 * same page after every change, and the same as a fresh build from the database.
 */
describe('status page projections on two instances', () => {
  let database: MediumDatabase;
  beforeAll(async () => (database = await mediumDatabase()));
  afterAll(() => database.close());

  async function instance(writes: boolean) {
    const { pushes, gateway } = localGateway();
    const stories = { forPage: async () => ({ incidents: [], history: [], maintenance: [], marks: [] }) };
    const medium = await newMediumService(PageProjections, database, {
      real: [
        StatusPagesRepository,
        PageDataRepository,
        PageDirectory,
        MonitorDaily,
        StatusAssets,
        DomainEvents,
        PagePushesListener,
        ...(writes ? [MonitorsRepository, CheckResultsWriter, StatusPagesListener] : []),
      ],
      use: [
        { provide: RealtimeGateway, useValue: gateway },
        { provide: PageStoriesSource, useValue: stories },
      ],
    });
    const events = medium.get(DomainEvents);
    registerListeners(events, medium.get(PagePushesListener));
    if (writes) registerListeners(events, medium.get(StatusPagesListener));
    return { ...medium, events, pushes };
  }

  async function twoInstances() {
    const a = await instance(true);
    const b = await instance(false);
    // A's server events reach B as Redis would carry them.
    a.events.relayTo((name: ServerEventName, payload: unknown) => {
      if ((SERVER_EVENTS as readonly string[]).includes(name)) b.events.receive(name, JSON.parse(JSON.stringify(payload)));
    });
    return { a, b };
  }

  /** A page written as StatusPagesService writes it, announced by instance A as the service does. */
  async function page(a: { events: DomainEvents }, slug: string, groups: StatusPageGroup[]): Promise<number> {
    const db = database.dataSource as DataSource;
    const [{ id }] = await db.query(`INSERT INTO status_pages (slug, title) VALUES ($1, $2) RETURNING id`, [slug, `Page ${slug}`]);
    await db.transaction((manager) => new StatusPagesRepository(db).replaceGroups(id, groups, manager));
    a.events.emit('status_page.changed', { pageId: id, slug });
    return id;
  }

  const check = (monitorId: number, ok: boolean) => ({
    monitorId,
    ok,
    statusCode: ok ? 200 : 503,
    responseTime: 42,
    error: ok ? null : 'HTTP 503',
    checkedAt: new Date(),
    rhythmNext: null,
  });

  it('agree after a check stored on one of them, push it to the page room, and match a fresh build', async () => {
    const { a, b } = await twoInstances();
    const monitors = a.get(MonitorsRepository);
    const web = await monitors.insert(monitorFields('web'), null);
    const api = await monitors.insert(monitorFields('api'), null);
    const writer = a.get(CheckResultsWriter);
    await writer.record(check(web.id, true), { immediately: true });
    await writer.record(check(api.id, true), { immediately: true });
    const pageId = await page(a, 'shop', [
      { name: 'Front', collapsed: false, items: [{ type: 'monitor', id: web.id }] },
      { name: 'Back', collapsed: false, items: [{ type: 'monitor', id: api.id }] },
    ]);
    const before = await b.sut.pageData(pageId);
    expect(before.groups.map((g) => g.items!.map((i) => [i.name, i.status, i.uptime]))).toEqual([
      [['web', 'up', 100]],
      [['api', 'up', 100]],
    ]);
    await a.sut.pageData(pageId);

    await writer.record(check(web.id, false), { immediately: true });
    const isDown = (data: StatusPageData) => data.groups[0].items![0].status === 'down';
    const onB = await until(() => b.sut.pageData(pageId), isDown);
    const onA = await until(() => a.sut.pageData(pageId), isDown);
    expect(comparable(onB)).toEqual(comparable(onA));
    expect(onB.groups[0]).toMatchObject({ counts: { down: 1 }, status: 'outage' });
    expect(onB.overall).toBe('outage');
    expect(onB.groups[0].items![0]).toMatchObject({ uptime: 50 });
    expect(onB.groups[0].items![0].days.at(-1)).toBe(50);

    const pushed = (instance: typeof b) =>
      instance.pushes.filter((p) => p.room === 'status:shop' && p.event === 'status.page_item').map((p) => p.payload as PageItemEvent);
    expect(pushed(b).at(-1)).toMatchObject({ slug: 'shop', component: { id: web.id, status: 'down' }, overall: 'outage' });
    expect(pushed(a).at(-1)).toEqual(pushed(b).at(-1));

    // What both patched is what a fresh build reads from the database (days included: nothing held is kept).
    b.sut.reset();
    expect(comparable(await b.sut.pageData(pageId))).toEqual(comparable(onB));
    await a.close();
    await b.close();
  });

  it('drop the page on both after a configuration change on one, and tell its visitors', async () => {
    const { a, b } = await twoInstances();
    const web = await a.get(MonitorsRepository).insert(monitorFields('docs'), null);
    const pageId = await page(a, 'docs', [{ name: 'Docs', collapsed: false, items: [{ type: 'monitor', id: web.id }] }]);
    expect((await b.sut.pageData(pageId)).page.title).toBe('Page docs');
    await database.dataSource.query(`UPDATE status_pages SET title = 'Docs site', history_days = 30 WHERE id = $1`, [pageId]);
    // Until told, B keeps serving what it holds.
    expect((await b.sut.pageData(pageId)).page.title).toBe('Page docs');

    a.events.emit('status_page.changed', { pageId, slug: 'docs' });
    const data = await until(
      () => b.sut.pageData(pageId),
      (d) => d.page.title === 'Docs site',
    );
    expect(data.groups[0].items![0].days).toHaveLength(30);
    expect(b.pushes).toContainEqual({ room: 'status:docs', event: 'status.page_changed', payload: { slug: 'docs' } });

    // An incident published on the page drops it too (its stories are read again).
    b.pushes.length = 0;
    a.events.emit('incident.changed', { action: 'created', incident: { id: 1 } as never, pageIds: [pageId], slugs: ['docs'] } as never);
    await until(
      () => b.pushes,
      (pushes) => pushes.some((p) => p.event === 'status.page_changed'),
    );
    await a.close();
    await b.close();
  });

  it('ignore a change of a component no page shows, and forget a deleted one', async () => {
    const { a, b } = await twoInstances();
    const monitors = a.get(MonitorsRepository);
    const listed = await monitors.insert(monitorFields('listed'), null);
    const unlisted = await monitors.insert(monitorFields('unlisted'), null);
    const pageId = await page(a, 'only', [{ name: '', collapsed: false, items: [{ type: 'monitor', id: listed.id }] }]);
    const before = await b.sut.pageData(pageId);
    await a.get(CheckResultsWriter).record(check(unlisted.id, false), { immediately: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(b.pushes.filter((p) => p.event === 'status.page_item')).toEqual([]);
    expect(comparable(await b.sut.pageData(pageId))).toEqual(comparable(before));

    await database.dataSource.query(`DELETE FROM monitors WHERE id = $1`, [listed.id]);
    a.events.emit('monitor.deleted', { monitor: { ...listed } as never });
    const data = await until(
      () => b.sut.pageData(pageId),
      (d) => d.groups[0].size === 0,
    );
    expect(data.groups[0].items).toEqual([]);
    await a.close();
    await b.close();
  });
  it('read the same days from the daily roll-up as from the hourly aggregates, today from the hours', async () => {
    const { a } = await twoInstances();
    const monitor = await a.get(MonitorsRepository).insert(monitorFields('rolled'), null);
    const now = Date.now();
    const today = epochDay(now);
    // Two checks an hour for the last 100 days, one of them down every third hour.
    await database.dataSource.query(
      `INSERT INTO monitor_hourly (monitor_id, hour, checks, up, response_sum, response_count)
       SELECT $1, h, 2, CASE WHEN extract(hour FROM h)::int % 3 = 0 THEN 1 ELSE 2 END, 0, 0
       FROM generate_series(date_trunc('hour', now()) - interval '100 days', date_trunc('hour', now()), interval '1 hour') h`,
      [monitor.id],
    );
    const data = a.get(PageDataRepository);
    const firstDay = today - BAR_DAYS + 1;
    const fromHours = (await data.monitorDays([monitor.id], firstDay, null)).get(monitor.id)!;
    const daily = a.get(MonitorDaily);
    expect(await daily.rolled()).toBeNull();
    const rolled = await daily.roll(now);
    expect(rolled).toEqual({ from: today - BAR_DAYS - 1, until: today });
    expect(await daily.rolled()).toEqual(rolled);
    const [{ days }] = await database.dataSource.query(`SELECT count(*)::int AS days FROM monitor_daily WHERE monitor_id = $1`, [
      monitor.id,
    ]);
    expect(days).toBe(BAR_DAYS + 1);
    const fromDays = (await data.monitorDays([monitor.id], firstDay, rolled)).get(monitor.id)!;
    expect(fromDays.days(today, BAR_DAYS)).toEqual(fromHours.days(today, BAR_DAYS));
    expect(fromDays.days(today - 1, 1)).toEqual([83.33]);
    expect(fromDays.uptime(today, 30)).toBe(fromHours.uptime(today, 30));

    // A late check of yesterday is counted by the next run, which recomputes the last day it rolled up.
    await database.dataSource.query(
      `UPDATE monitor_hourly SET checks = checks + 2 WHERE monitor_id = $1 AND hour = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 hour'`,
      [monitor.id],
    );
    await daily.roll(now);
    const again = (await data.monitorDays([monitor.id], firstDay, rolled)).get(monitor.id)!;
    expect(again.days(today - 1, 1)).toEqual((await data.monitorDays([monitor.id], firstDay, null)).get(monitor.id)!.days(today - 1, 1));
    expect(again.days(today - 1, 1)).not.toEqual([83.33]);
    await a.close();
  });
});

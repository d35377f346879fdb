import type { AgentHello, StatusData } from '@vigil/proto';
import { AgentsRepository } from '../../src/agents/agents.repository';
import { DomainEvents } from '../../src/events/domain-events.service';
import { registerListeners } from '../../src/events/event-listeners';
import { CheckResultsWriter } from '../../src/monitors/check-results.writer';
import { MonitorFields, MonitorsRepository } from '../../src/monitors/monitors.repository';
import { RealtimeGateway } from '../../src/realtime/realtime.gateway';
import { SettingsRepository } from '../../src/settings/settings.repository';
import { StatusAssets } from '../../src/status/status-assets';
import { StatusListener } from '../../src/status/status.listener';
import { StatusRepository } from '../../src/status/status.repository';
import { StatusService } from '../../src/status/status.service';
import { HTTP_TYPE_FIELDS } from '../../src/monitors/monitor-fixtures.testing';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const monitorFields = (name: string, active = true): MonitorFields => ({
  ...HTTP_TYPE_FIELDS,
  name,
  url: `http://192.0.2.1/${name}`,
  method: 'GET',
  interval: 60,
  timeout: 10,
  expectedStatus: 200,
  headers: {},
  body: null,
  active,
  retries: 0,
  retryInterval: 60,
});

const hello: AgentHello = {
  hostname: 'db-1',
  ip_addresses: ['192.0.2.10'],
  os: 'Debian GNU/Linux 12',
  platform: 'linux',
  kernel: '6.1.0',
  arch: 'x64',
  cpu_model: 'Test CPU',
  cpu_cores: 2,
  agent_version: '0.1.0',
  interval: 5,
};

/** What this instance pushed to the sockets it holds, by room. */
function localGateway() {
  const pushes: Array<{ room: string; event: string; payload: unknown }> = [];
  const to = (room: string) => ({ emit: (event: string, payload?: unknown) => pushes.push({ room, event, payload }) });
  return { pushes, gateway: { server: { local: { to }, to } } };
}

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met within 2 s');
}

/**
 * The status page projection (StatusService fed by StatusListener) on a real database: the checks are stored by the
 * real writer, whose events travel through the real bus; only the socket server is faked.
 */
describe('status projection', () => {
  let database: MediumDatabase;
  beforeAll(async () => (database = await mediumDatabase()));
  afterAll(() => database.close());

  async function setup() {
    const { pushes, gateway } = localGateway();
    const medium = await newMediumService(StatusService, database, {
      real: [
        StatusRepository,
        SettingsRepository,
        MonitorsRepository,
        AgentsRepository,
        StatusAssets,
        StatusListener,
        DomainEvents,
        CheckResultsWriter,
      ],
      use: [{ provide: RealtimeGateway, useValue: gateway }],
    });
    const events = medium.get(DomainEvents);
    registerListeners(events, medium.get(StatusListener));
    return { ...medium, events, pushes, monitors: medium.get(MonitorsRepository), writer: medium.get(CheckResultsWriter) };
  }

  async function page(monitorNames: string[], paused: string[] = []) {
    const { sut, get, ...rest } = await setup();
    const monitors = await Promise.all(monitorNames.map((name) => rest.monitors.insert(monitorFields(name, !paused.includes(name)), null)));
    const agent = await get(AgentsRepository).insert({
      name: 'db-1',
      hello,
      protocol: 'socket',
      interval: 5,
      credentialHash: null,
      httpKey: null,
      registrationId: null,
    });
    // As its first report would have left it.
    await database.dataSource.query(`UPDATE agents SET status = 'active' WHERE id = $1`, [agent.id]);
    await get(StatusRepository).select(
      monitors.map((m) => m.id),
      [agent.id],
    );
    await database.dataSource.transaction((db) =>
      get(StatusRepository).saveDefaultSettings(
        { title: 'Acme', description: 'Ours', logoUrl: null, customCss: null, showResources: true },
        db,
      ),
    );
    return { sut, get, ...rest, monitors, agent };
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

  it('is built from the database: settings, selected items with their state, paused monitors out of the banner', async () => {
    const { sut, monitors, agent, close } = await page(['web', 'api', 'cron'], ['cron']);
    const data = await sut.data();
    expect(data).toMatchObject({ title: 'Acme', description: 'Ours', showResources: true, overall: 'degraded' });
    expect(data.monitors.map((m) => [m.id, m.name, m.status, m.active])).toEqual(
      expect.arrayContaining([
        [monitors[0].id, 'web', 'pending', true],
        [monitors[1].id, 'api', 'pending', true],
        [monitors[2].id, 'cron', 'pending', false],
      ]),
    );
    expect(data.agents).toEqual([expect.objectContaining({ id: agent.id, name: 'db-1', hostname: 'db-1', status: 'active' })]);
    await close();
  });

  it('follows a stored check that turns a monitor down, pushes the item, and agrees with a rebuild from the database', async () => {
    const { sut, monitors, writer, pushes, close } = await page(['shop', 'blog']);
    for (const m of monitors) await writer.record(check(m.id, true), { immediately: true });
    await until(
      () => sut.data(),
      (d) => d.monitors.every((m) => m.status === 'up'),
    );
    expect((await sut.data()).overall).toBe('operational');

    const [shop] = monitors;
    await writer.record(check(shop.id, false), { immediately: true });
    const data = await until(
      () => sut.data(),
      (d) => d.monitors.find((m) => m.id === shop.id)?.status === 'down',
    );
    expect(data.overall).toBe('degraded');
    expect(data.monitors.find((m) => m.id === shop.id)!.history.map((h) => h.status)).toEqual(['up', 'down']);
    const items = () => pushes.filter((p) => p.room === 'status' && p.event === 'status.item').map((p) => p.payload);
    await until(items, (pushed) => pushed.length === 3);
    expect(items().at(-1)).toMatchObject({ monitor: { id: shop.id, status: 'down' }, overall: 'degraded' });

    // The patched snapshot is what a fresh build reads (up to the rebuild's clock).
    const patched: StatusData = structuredClone(data);
    sut.invalidate();
    const rebuilt = await sut.data();
    const stable = (d: StatusData) => ({
      ...d,
      updated_at: undefined,
      monitors: d.monitors.map((m) => ({ ...m, uptime: Math.round(m.uptime) })),
    });
    expect(stable(rebuilt)).toEqual(stable(patched));
    await close();
  });

  it('keeps both of two checks of one monitor stored in one batch', async () => {
    const { sut, monitors, writer, close } = await page(['twice']);
    const [id] = monitors.map((m) => m.id);
    await sut.data();
    const first = { ...check(id, true), checkedAt: new Date(Date.now() - 1000) };
    await Promise.all([writer.record(first), writer.record(check(id, false))]);
    const data = await until(
      () => sut.data(),
      (d) => d.monitors[0].history.length === 2,
    );
    expect(data.monitors[0]).toMatchObject({ status: 'down', history: [{ status: 'up' }, { status: 'down' }] });
    await close();
  });

  it('takes an item another instance worked out and pushes it to the visitors it holds', async () => {
    const { sut, events, agent, pushes, close } = await page(['edge']);
    const before = await sut.data();
    const renamed = { ...before.agents[0], name: 'db-1 (primary)', status: 'active' as const, cpu: 12.5 };
    events.receive('status.item_changed', { agent: renamed });
    const data = await until(
      () => sut.data(),
      (d) => d.agents[0].name === 'db-1 (primary)',
    );
    expect(data.agents).toEqual([renamed]);
    expect(pushes.at(-1)).toMatchObject({ room: 'status', event: 'status.item', payload: { agent: { id: agent.id } } });
    await close();
  });

  it('is dropped by a configuration change another instance saved, and its visitors are told to read again', async () => {
    const { sut, get, events, pushes, close } = await page(['docs']);
    expect((await sut.data()).title).toBe('Acme');
    // Instance A saves the page: the row changes under this instance's snapshot, which keeps serving it until told.
    await database.dataSource.transaction((db) =>
      get(StatusRepository).saveDefaultSettings(
        { title: 'Acme Cloud', description: '', logoUrl: null, customCss: null, showResources: false },
        db,
      ),
    );
    expect((await sut.data()).title).toBe('Acme');

    events.receive('status.config_changed', {});
    const data = await sut.data();
    expect(data).toMatchObject({ title: 'Acme Cloud', showResources: false });
    expect(data.agents[0]).toMatchObject({ cpu: null, memory: null, disk: null });
    expect(pushes.map((p) => [p.room, p.event])).toEqual(
      expect.arrayContaining([
        ['status', 'status.changed'],
        ['wall', 'wall.changed'],
      ]),
    );
    await close();
  });

  it('ignores an item that is not on the page', async () => {
    const { sut, monitors, close } = await page(['listed']);
    const before = await sut.data();
    await sut.apply({ monitor: { ...before.monitors[0], id: monitors[0].id + 1000, status: 'down' } });
    expect((await sut.data()).monitors).toEqual(before.monitors);
    expect((await sut.data()).overall).toBe(before.overall);
    await close();
  });
});

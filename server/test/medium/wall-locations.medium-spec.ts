import type { AgentHello, LocationId, LocationStatus, MonitorLocationEvent } from '@vigil/proto';
import { AgentsRepository } from '../../src/agents/agents.repository';
import { DomainEvents } from '../../src/events/domain-events.service';
import { HTTP_TYPE_FIELDS } from '../../src/monitors/monitor-fixtures.testing';
import { MonitorsRepository } from '../../src/monitors/monitors.repository';
import { RealtimeGateway } from '../../src/realtime/realtime.gateway';
import { SettingsRepository } from '../../src/settings/settings.repository';
import { StatusAssets } from '../../src/status/status-assets';
import { StatusListener } from '../../src/status/status.listener';
import { StatusRepository } from '../../src/status/status.repository';
import { StatusService } from '../../src/status/status.service';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const hello = (hostname: string): AgentHello => ({
  hostname,
  ip_addresses: ['192.0.2.10'],
  os: 'Debian GNU/Linux 12',
  platform: 'linux',
  kernel: '6.1.0',
  arch: 'x64',
  cpu_model: 'Test CPU',
  cpu_cores: 2,
  agent_version: '0.2.0',
  interval: 5,
});

/**
 * The wall's location counts (StatusRepository.locationCounts, one grouped read) on a real database, and the
 * listener that pushes them to walls when a location starts or stops failing; only the socket server is faked.
 */
describe('wall locations', () => {
  let database: MediumDatabase;
  beforeAll(async () => (database = await mediumDatabase()));
  afterAll(() => database.close());

  async function setup() {
    const pushes: Array<{ room: string; event: string; payload: unknown }> = [];
    const to = (room: string) => ({ emit: (event: string, payload?: unknown) => pushes.push({ room, event, payload }) });
    const medium = await newMediumService(StatusService, database, {
      real: [StatusRepository, SettingsRepository, MonitorsRepository, AgentsRepository, StatusAssets, StatusListener, DomainEvents],
      use: [{ provide: RealtimeGateway, useValue: { server: { local: { to }, to } } }],
    });
    const agent = async (name: string, status: 'active' | 'inactive') => {
      const row = await medium.get(AgentsRepository).insert({
        name,
        hello: hello(name),
        protocol: 'socket',
        interval: 5,
        credentialHash: null,
        httpKey: null,
        registrationId: null,
      });
      await database.dataSource.query(`UPDATE agents SET status = $2 WHERE id = $1`, [row.id, status]);
      return `agent:${row.id}` as LocationId;
    };
    const monitor = async (name: string, locations: LocationId[]) =>
      (
        await medium.get(MonitorsRepository).insert(
          {
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
            locations,
          },
          null,
        )
      ).id;
    /** A location's last result, `ageSeconds` old. */
    const result = (monitorId: number, location: LocationId, status: LocationStatus, ageSeconds = 5) =>
      database.dataSource.query(
        `INSERT INTO monitor_locations (monitor_id, location, status, checked_at) VALUES ($1, $2, $3, now() - make_interval(secs => $4))
         ON CONFLICT (monitor_id, location) DO UPDATE SET status = $3, checked_at = now() - make_interval(secs => $4)`,
        [monitorId, location, status, ageSeconds],
      );
    /** A location's stored status, null before any. */
    const stored = async (monitorId: number, location: LocationId): Promise<LocationStatus | null> => {
      const [row] = await database.dataSource.query(`SELECT status FROM monitor_locations WHERE monitor_id = $1 AND location = $2`, [
        monitorId,
        location,
      ]);
      return row?.status ?? null;
    };
    return { ...medium, pushes, agent, monitor, result, stored, listener: medium.get(StatusListener) };
  }

  it('counts the known failing locations of each monitor checked from several, in one read of the wall', async () => {
    const { sut, agent, monitor, result, close } = await setup();
    const [east, west] = [await agent('east', 'active'), await agent('west', 'inactive')];
    const shop = await monitor('shop', ['server', east, west]);
    const blog = await monitor('blog', ['server', east]);
    const home = await monitor('home', ['server']);
    await result(shop, 'server', 'down');
    await result(shop, east, 'down');
    // Its agent is offline: unknown, not failing.
    await result(shop, west, 'down');
    // Older than two intervals plus the timeout (130 s): stale, so unknown.
    await result(blog, east, 'down', 600);
    await result(blog, 'server', 'up');
    // A location the monitor no longer uses is not one of its locations.
    await result(blog, 'agent:999999' as LocationId, 'down');
    await result(home, 'server', 'down');

    const wall = await sut.wall();
    const item = (id: number) => wall.monitors.find((m) => m.id === id)!;
    expect(item(shop)).toMatchObject({ locations_failing: 2, locations_total: 3 });
    expect(item(blog)).toMatchObject({ locations_failing: 0, locations_total: 2 });
    // Checked from the server alone: the wall's item is unchanged.
    expect(item(home)).not.toHaveProperty('locations_failing');
    expect(item(home)).not.toHaveProperty('locations_total');
    await close();
  });

  it('pushes a monitor’s counts to walls only when a location starts or stops failing', async () => {
    const { agent, monitor, result, stored, listener, pushes, close } = await setup();
    const east = await agent('east', 'active');
    const api = await monitor('api', ['server', east]);
    const heard = async (location: LocationId, status: LocationStatus) => {
      // As the location writer raises it: with the status stored before this result.
      const previous = await stored(api, location);
      await result(api, location, status);
      const event: MonitorLocationEvent & { previous: LocationStatus | null } = {
        monitor_id: api,
        location: { location, name: location, agent_id: null, status, response_time: 10, error: null, checked_at: null, uptime: null },
        previous,
      };
      await listener.locationChecked(event);
    };
    const walls = () => pushes.filter((push) => push.room === 'wall' && push.event === 'wall.locations').map((push) => push.payload);

    await heard('server', 'up');
    await heard(east, 'up');
    expect(walls()).toEqual([]);
    await heard(east, 'down');
    expect(walls()).toEqual([expect.objectContaining({ monitor_id: api, locations_failing: 1, locations_total: 2 })]);
    await heard(east, 'down');
    await heard('server', 'up');
    expect(walls()).toHaveLength(1);
    await heard(east, 'up');
    expect(walls()).toEqual([
      expect.objectContaining({ locations_failing: 1 }),
      expect.objectContaining({ monitor_id: api, locations_failing: 0, locations_total: 2 }),
    ]);
    await close();
  });
});

import type { AgentHello, AgentProtocol, AgentReport, AgentStatus } from '@vigil/proto';
import { AgentPresence } from '../../src/agents/agent-presence.service';
import { AgentReportsWriter } from '../../src/agents/agent-reports.writer';
import type { AgentRow } from '../../src/agents/agent.types';
import { AgentsRepository } from '../../src/agents/agents.repository';
import type { AppConfig } from '../../src/config/config';
import { APP_CONFIG } from '../../src/config/config.module';
import { DomainEvents } from '../../src/events/domain-events.service';
import type { EventMap } from '../../src/events/event-map';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const INTERVAL_S = 5;

const hello = (hostname: string): AgentHello => ({
  hostname,
  ip_addresses: ['192.0.2.10'],
  os: 'Debian GNU/Linux 12',
  platform: 'linux',
  agent_version: '0.1.0',
});

const report = (): AgentReport => ({
  timestamp: Date.now(),
  cpu: 12.5,
  memory_total: 8 * 1024 ** 3,
  memory_used: 2 * 1024 ** 3,
  disks: [{ mount: '/', fs: 'ext4', total: 100 * 1024 ** 3, used: 40 * 1024 ** 3 }],
  interfaces: [],
});

/** The status changes an instance announced after commit, as `[agent id, previous, status]`. */
type Announced = Array<[number, AgentStatus, AgentStatus]>;

/** Listens after commit on the bus of a service, as pushes and the status projection do. */
function listen(events: DomainEvents): Announced {
  const heard: Announced = [];
  events.on('agent.status_changed', { phase: 'commit', everyInstance: false }, (payload) => {
    const change = payload as EventMap['agent.status_changed'];
    heard.push([change.agent.id, change.previous, change.status]);
  });
  return heard;
}

const announced = (heard: Announced) => [...heard];
const clear = (heard: Announced) => void heard.splice(0);

describe(AgentPresence.name, () => {
  let database: MediumDatabase;
  let sut: AgentPresence;
  let events: Announced;
  let agents: AgentsRepository;
  let graceSeconds: number;
  const closers: Array<() => Promise<void>> = [];

  const presence = async () => {
    const service = await newMediumService(AgentPresence, database, { real: [AgentsRepository, DomainEvents] });
    closers.push(service.close);
    return { sut: service.sut, events: listen(service.get(DomainEvents)), service };
  };

  beforeAll(async () => {
    database = await mediumDatabase();
    const first = await presence();
    ({ sut, events } = first);
    agents = first.service.get(AgentsRepository);
    graceSeconds = first.service.get<AppConfig>(APP_CONFIG).agents.graceSeconds;
  });
  beforeEach(() => clear(events));
  afterAll(async () => {
    for (const close of closers) await close();
    await database.close();
  });

  const newAgent = (hostname: string, protocol: AgentProtocol = 'socket') =>
    agents.insert({
      name: hostname,
      hello: hello(hostname),
      protocol,
      interval: INTERVAL_S,
      credentialHash: null,
      httpKey: null,
      registrationId: null,
    });
  /** Moves the agent's last sign of life (and its socket's disconnection, if any) `seconds` into the past. */
  const silentFor = (id: number, seconds: number) =>
    database.dataSource.query(
      `UPDATE agents SET last_seen_at = now() - make_interval(secs => $2),
         disconnected_at = CASE WHEN disconnected_at IS NULL THEN NULL ELSE now() - make_interval(secs => $2) END
       WHERE id = $1`,
      [id, seconds],
    );
  const status = async (id: number) => (await agents.findById(id))!.status;

  it('marks a connecting agent that never reports offline after three silent intervals plus the grace period, once', async () => {
    const { id } = await newAgent('web-1');
    await silentFor(id, INTERVAL_S * 3 + graceSeconds - 1);
    await sut.sweep();
    expect(await status(id)).toBe('connecting');
    await silentFor(id, INTERVAL_S * 3 + graceSeconds + 1);
    await sut.sweep();
    await sut.sweep();
    expect(await status(id)).toBe('inactive');
    expect(announced(events)).toEqual([[id, 'connecting', 'inactive']]);
  });

  it('moves an offline agent whose socket connects to connecting, announced once', async () => {
    const { id } = await newAgent('web-2');
    await silentFor(id, 3600);
    await sut.sweep();
    clear(events);
    await sut.connected(id, 'socket-a');
    await sut.connected(id, 'socket-a');
    expect(await status(id)).toBe('connecting');
    expect(announced(events)).toEqual([[id, 'inactive', 'connecting']]);
  });

  it('keeps an agent online for the grace period after its socket went away, then marks it offline once', async () => {
    const { id } = await newAgent('web-3');
    await database.dataSource.query(`UPDATE agents SET status = 'active' WHERE id = $1`, [id]);
    await sut.connected(id, 'socket-a');
    await sut.disconnected(id, 'socket-a');
    await sut.sweep();
    expect(await status(id)).toBe('active');
    await silentFor(id, graceSeconds + 1);
    await sut.sweep();
    await sut.sweep();
    expect(await status(id)).toBe('inactive');
    expect(announced(events)).toEqual([[id, 'active', 'inactive']]);
  });

  it('ignores the late disconnection of a socket that a newer one replaced', async () => {
    const { id } = await newAgent('web-4');
    await database.dataSource.query(`UPDATE agents SET status = 'active' WHERE id = $1`, [id]);
    await sut.connected(id, 'socket-old');
    await sut.connected(id, 'socket-new');
    await sut.disconnected(id, 'socket-old');
    const [row] = await database.dataSource.query(`SELECT connection_id, disconnected_at FROM agents WHERE id = $1`, [id]);
    expect(row).toEqual({ connection_id: 'socket-new', disconnected_at: null });
    await silentFor(id, graceSeconds + 1);
    await sut.sweep();
    expect(await status(id)).toBe('active');
    expect(announced(events)).toEqual([]);
  });

  it('gives an HTTP agent three intervals, with no grace period, before it counts as offline', async () => {
    const { id } = await newAgent('batch-1', 'http');
    await database.dataSource.query(`UPDATE agents SET status = 'active' WHERE id = $1`, [id]);
    await silentFor(id, INTERVAL_S * 3 - 1);
    await sut.sweep();
    expect(await status(id)).toBe('active');
    await silentFor(id, INTERVAL_S * 3 + 1);
    await sut.sweep();
    expect(announced(events)).toEqual([[id, 'active', 'inactive']]);
  });

  it('announces a transition once when two instances sweep at the same time', async () => {
    const other = await presence();
    const silent = [await newAgent('web-5'), await newAgent('web-6'), await newAgent('web-7')];
    for (const { id } of silent) await silentFor(id, 3600);
    await Promise.all([sut.sweep(), other.sut.sweep()]);
    const all = [...announced(events), ...announced(other.events)].sort(([a], [b]) => a - b);
    expect(all).toEqual(silent.map(({ id }) => [id, 'connecting', 'inactive']));
  });

  describe('with reports', () => {
    let writer: AgentReportsWriter;
    let writerEvents: Announced;

    beforeAll(async () => {
      const service = await newMediumService(AgentReportsWriter, database, { real: [AgentsRepository, DomainEvents] });
      closers.push(service.close);
      writer = service.sut;
      writerEvents = listen(service.get(DomainEvents));
    });

    const ingest = async (row: AgentRow, count = 1) => {
      writer.ingest(row, Array.from({ length: count }, report));
      // Stores what the writer queued, as it does on its timer.
      await writer.beforeApplicationShutdown();
    };

    it('marks an agent online when its first report is stored, announced once however many reports follow', async () => {
      const row = await newAgent('db-1');
      await sut.connected(row.id, 'socket-a');
      await ingest(row, 3);
      await ingest(row);
      expect(await status(row.id)).toBe('active');
      expect(announced(writerEvents)).toEqual([[row.id, 'connecting', 'active']]);
    });

    it('brings an offline agent back online with its next report', async () => {
      const row = await newAgent('db-2');
      await silentFor(row.id, 3600);
      await sut.sweep();
      clear(writerEvents);
      await ingest(row);
      expect(await status(row.id)).toBe('active');
      expect(announced(writerEvents)).toEqual([[row.id, 'inactive', 'active']]);
      await sut.sweep();
      expect(await status(row.id)).toBe('active');
    });
  });
});

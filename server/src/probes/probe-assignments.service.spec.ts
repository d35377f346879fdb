import { PROBE_LIMITS, type ProbeAssignmentsMessage } from '@vigil/proto';
import { monitorRow } from '../monitors/monitor-fixtures.testing';
import type { MonitorRow } from '../monitors/monitor.types';
import { isAssignedTo } from './probe-assignment';
import { ProbeAssignments, ProbeSession } from './probe-assignments.service';
import type { ProbeAssignmentsRepository } from './probe-assignments.repository';

/** The monitors table in memory, answering as the repository's SQL does; `hold` delays the next read of a set. */
class MonitorsTable {
  rows = new Map<number, MonitorRow>();
  reads = 0;
  private held: Array<() => void> = [];
  hold = false;

  put(id: number, overrides: Partial<MonitorRow>): void {
    this.rows.set(id, monitorRow({ id, locations: ['agent:1'], ...overrides }));
  }

  repository(): ProbeAssignmentsRepository {
    return {
      assignedTo: async (agentId: number, limit: number) => {
        const rows = [...this.rows.values()].filter((row) => isAssignedTo(row, agentId)).sort((a, b) => a.id - b.id);
        if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
        return rows.slice(0, limit);
      },
      findById: async (id: number) => {
        this.reads += 1;
        return this.rows.get(id) ?? null;
      },
    } as unknown as ProbeAssignmentsRepository;
  }

  release(): void {
    this.hold = false;
    for (const resolve of this.held.splice(0)) resolve();
  }
}

function session(agentId: number): { session: ProbeSession; sent: ProbeAssignmentsMessage[] } {
  const sent: ProbeAssignmentsMessage[] = [];
  return { session: new ProbeSession(agentId, (message) => sent.push(message)), sent };
}

const ids = (message: ProbeAssignmentsMessage) => ({
  full: message.full,
  upsert: message.upsert.map((a) => a.monitor_id),
  remove: message.remove,
});

describe('ProbeAssignments', () => {
  let table: MonitorsTable;
  let sut: ProbeAssignments;

  beforeEach(() => {
    table = new MonitorsTable();
    sut = new ProbeAssignments(table.repository());
  });

  it('sends the whole set after a hello, the same set again after the next one', async () => {
    table.put(2, {});
    table.put(1, { type: 'tcp', hostname: 'db', port: 5432 });
    table.put(3, { locations: ['agent:2'] });
    const agent = session(1);
    await sut.sendAll(agent.session);
    await sut.sendAll(agent.session);
    expect(agent.sent.map(ids)).toEqual([
      { full: true, upsert: [1, 2], remove: [] },
      { full: true, upsert: [1, 2], remove: [] },
    ]);
  });

  it('sends a changed check once, a paused one as removed, and nothing to agents it does not concern', async () => {
    table.put(1, {});
    const [agent, other] = [session(1), session(2)];
    await Promise.all([sut.sendAll(agent.session), sut.sendAll(other.session)]);
    const { revision } = agent.sent[0].upsert[0];

    table.put(1, { url: 'https://elsewhere.example.com' });
    await sut.monitorChanged(1, [1], [agent.session, other.session]);
    table.put(1, { url: 'https://elsewhere.example.com', name: 'renamed' });
    await sut.monitorChanged(1, [1], [agent.session, other.session]);
    table.put(1, { url: 'https://elsewhere.example.com', active: false });
    await sut.monitorChanged(1, [1], [agent.session, other.session]);

    expect(agent.sent.slice(1).map(ids)).toEqual([
      { full: false, upsert: [1], remove: [] },
      { full: false, upsert: [], remove: [1] },
    ]);
    expect(agent.sent[1].upsert[0].revision).not.toBe(revision);
    expect(other.sent.map(ids)).toEqual([{ full: true, upsert: [], remove: [] }]);
    expect(agent.session.held.size).toBe(0);
  });

  it('adds a monitor newly naming the agent and removes one that moved away or was deleted', async () => {
    table.put(1, {});
    const agent = session(1);
    await sut.sendAll(agent.session);
    table.put(2, {});
    await sut.monitorChanged(2, [1], [agent.session]);
    table.put(2, { locations: ['server'] });
    await sut.monitorChanged(2, [], [agent.session]);
    table.rows.delete(1);
    await sut.monitorChanged(1, [1], [agent.session]);
    expect(agent.sent.slice(1).map(ids)).toEqual([
      { full: false, upsert: [2], remove: [] },
      { full: false, upsert: [], remove: [2] },
      { full: false, upsert: [], remove: [1] },
    ]);
  });

  it('reads a changed monitor once for all its agents, and not at all when no agent here runs it', async () => {
    table.put(1, { locations: ['agent:1', 'agent:2'] });
    const agents = [session(1), session(2), session(3)];
    await Promise.all(agents.map((a) => sut.sendAll(a.session)));
    await sut.monitorChanged(
      1,
      [1, 2],
      agents.map((a) => a.session),
    );
    expect(table.reads).toBe(1);
    await sut.monitorChanged(
      9,
      [],
      agents.map((a) => a.session),
    );
    expect(table.reads).toBe(1);
  });

  it('lands a change after the set its hello was still reading, so the agent never keeps a stale check', async () => {
    table.put(1, {});
    const agent = session(1);
    table.hold = true;
    const hello = sut.sendAll(agent.session);
    await new Promise(setImmediate);
    // Paused while the hello's read (which saw it active) is in flight; the event names no agent any more.
    table.put(1, { active: false });
    const change = sut.monitorChanged(1, [], [agent.session]);
    table.release();
    await Promise.all([hello, change]);
    expect(agent.sent.map(ids)).toEqual([
      { full: true, upsert: [1], remove: [] },
      { full: false, upsert: [], remove: [1] },
    ]);
  });

  it('runs the lowest monitor ids up to the bound, and lets the next one in when one of those goes', async () => {
    for (let id = 1; id <= PROBE_LIMITS.assignmentsMax + 1; id += 1) table.put(id, {});
    const agent = session(1);
    await sut.sendAll(agent.session);
    expect(agent.sent[0].upsert).toHaveLength(PROBE_LIMITS.assignmentsMax);
    expect(agent.session.held.has(PROBE_LIMITS.assignmentsMax + 1)).toBe(false);
    table.rows.delete(5);
    await sut.monitorChanged(5, [1], [agent.session]);
    expect(ids(agent.sent[1])).toEqual({ full: false, upsert: [PROBE_LIMITS.assignmentsMax + 1], remove: [5] });
  });
});

import { AGENT_LIMITS, AgentContainerReport, CONTAINER_STATES, ContainerHealth, ContainerState } from '@vigil/proto';
import { engineGet } from './engine-api';
import { rateKBs } from './rates';

/** Docker's socket, then rootful Podman's (its Docker-compatible API answers the same paths). */
export const DEFAULT_ENGINE_SOCKETS = ['/var/run/docker.sock', '/run/podman/podman.sock'];

const LIST_MAX_BYTES = 8 * 1024 * 1024;
const STATS_MAX_BYTES = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 5_000;
const CONCURRENCY = 8;

/** What one stats answer says, kept per container to compute CPU % and rates at the next report. */
export interface StatsReading {
  at: number;
  cpuTotal: number;
  systemTotal: number;
  memoryUsed: number;
  memoryLimit: number;
  netRx: number;
  netTx: number;
  blockRead: number;
  blockWrite: number;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

/** Podman's own words for states Docker names otherwise; anything else unknown is taken as not running. */
const STATE_ALIASES: Record<string, ContainerState> = {
  stopped: 'exited',
  configured: 'created',
  stopping: 'running',
  initialized: 'created',
};

export function stateOf(state: unknown): ContainerState {
  const text = typeof state === 'string' ? state.toLowerCase() : '';
  return (CONTAINER_STATES as readonly string[]).includes(text) ? (text as ContainerState) : (STATE_ALIASES[text] ?? 'exited');
}

/**
 * Health from the list item itself, so it costs no request per container: newer engines give `Health.Status`, every
 * engine appends it to `Status` ("Up 5 minutes (unhealthy)", "Up 3 seconds (health: starting)").
 */
export function healthOf(item: Json): ContainerHealth {
  const stated = obj(item.Health).Status;
  if (stated === 'healthy' || stated === 'unhealthy' || stated === 'starting') return stated;
  const match = /\((healthy|unhealthy|health: starting)\)/.exec(typeof item.Status === 'string' ? item.Status : '');
  if (!match) return 'none';
  return match[1] === 'health: starting' ? 'starting' : (match[1] as ContainerHealth);
}

/** The figures of a `/containers/{id}/stats` answer; `previous` is the precpu side when the engine filled it. */
export function readingOf(stats: Json, at: number): { now: StatsReading; pre: Pick<StatsReading, 'cpuTotal' | 'systemTotal'> | null } {
  const cpu = (side: unknown) => ({
    cpuTotal: count(obj(obj(side).cpu_usage).total_usage),
    systemTotal: count(obj(side).system_cpu_usage),
  });
  const memory = obj(stats.memory_stats);
  const detail = obj(memory.stats);
  // What `docker stats` shows: the page cache the kernel can drop is not counted as used.
  const cache = count(detail.inactive_file ?? detail.total_inactive_file ?? detail.cache);
  const usage = count(memory.usage);
  let netRx = 0;
  let netTx = 0;
  for (const nic of Object.values(obj(stats.networks))) {
    netRx += count(obj(nic).rx_bytes);
    netTx += count(obj(nic).tx_bytes);
  }
  let blockRead = 0;
  let blockWrite = 0;
  const io = obj(stats.blkio_stats).io_service_bytes_recursive;
  for (const entry of Array.isArray(io) ? io : []) {
    const op = String(obj(entry).op ?? '').toLowerCase();
    if (op === 'read') blockRead += count(obj(entry).value);
    if (op === 'write') blockWrite += count(obj(entry).value);
  }
  const pre = cpu(stats.precpu_stats);
  return {
    now: {
      at,
      ...cpu(stats.cpu_stats),
      memoryUsed: Math.max(0, usage - cache),
      memoryLimit: count(memory.limit),
      netRx,
      netTx,
      blockRead,
      blockWrite,
    },
    pre: pre.systemTotal > 0 ? pre : null,
  };
}

const rate = (before: number | undefined, now: number, elapsed: number) => Math.min(AGENT_LIMITS.rateMaxKbs, rateKBs(before, now, elapsed));

/**
 * One container's report. CPU % of the whole host as `docker stats` computes it, without its multiplication by the
 * core count: the container's CPU time over the host's between two readings. Rates need the previous report's reading.
 */
export function containerReportOf(
  item: Json,
  reading: StatsReading | null,
  previous: StatsReading | null,
  hostMemory: number,
): AgentContainerReport {
  const max = AGENT_LIMITS.containerTextMax;
  const id = String(item.Id).toLowerCase();
  const names = Array.isArray(item.Names) ? item.Names.filter((n): n is string => typeof n === 'string') : [];
  const name = (names[0] ?? '').replace(/^\//, '') || id.slice(0, 12);
  const base = {
    id: id.slice(0, 12),
    name: name.slice(0, max),
    image: (typeof item.Image === 'string' && item.Image ? item.Image : 'unknown').slice(0, max),
    state: stateOf(item.State),
    health: healthOf(item),
  };
  if (!reading)
    return { ...base, cpu: 0, memory_used: 0, memory_limit: 0, net_rx_rate: 0, net_tx_rate: 0, block_read_rate: 0, block_write_rate: 0 };
  const cpuDelta = previous ? reading.cpuTotal - previous.cpuTotal : 0;
  const systemDelta = previous ? reading.systemTotal - previous.systemTotal : 0;
  const cpu = cpuDelta > 0 && systemDelta > 0 ? Math.min(100, Math.round((cpuDelta / systemDelta) * 10_000) / 100) : 0;
  const elapsed = previous && previous.at < reading.at ? reading.at - previous.at : 0;
  // An unlimited container is reported with the host's memory (cgroup v2) or a near-2^63 figure (v1) as its limit.
  const unlimited = reading.memoryLimit >= hostMemory || reading.memoryLimit > AGENT_LIMITS.bytesMax;
  return {
    ...base,
    cpu,
    memory_used: Math.min(AGENT_LIMITS.bytesMax, reading.memoryUsed),
    memory_limit: unlimited ? 0 : reading.memoryLimit,
    net_rx_rate: rate(previous?.netRx, reading.netRx, elapsed),
    net_tx_rate: rate(previous?.netTx, reading.netTx, elapsed),
    block_read_rate: rate(previous?.blockRead, reading.blockRead, elapsed),
    block_write_rate: rate(previous?.blockWrite, reading.blockWrite, elapsed),
  };
}

export interface ContainerCollectorOptions {
  /** Sockets to try, in order; the first whose list answers is kept. */
  sockets: string[];
  /** Bytes of memory on the host, to tell an unlimited container from a limited one. */
  hostMemory: number;
  now?: () => number;
  requestTimeoutMs?: number;
  listMaxBytes?: number;
  statsMaxBytes?: number;
}

/**
 * Containers through the Engine API (read-only GETs): the list, then one stats call per running container, 8 at a
 * time. A stats call that fails or runs out of time leaves that container's figures at 0; a list that fails on
 * every socket means the engine cannot be read, and the answer is null.
 */
export class ContainerCollector {
  private readonly previous = new Map<string, StatsReading>();
  private socket: string | null = null;
  /** Why the last read saw no engine, for the agent's log. */
  problem: string | null = null;

  constructor(private readonly options: ContainerCollectorOptions) {}

  async read(budgetMs: number): Promise<AgentContainerReport[] | null> {
    const now = this.options.now ?? Date.now;
    const deadline = now() + budgetMs;
    const timeout = () => Math.max(1, Math.min(this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, deadline - now()));
    const listed = await this.list(timeout);
    if (!listed) return null;
    const [socket, items] = listed;
    const readings = new Map<string, StatsReading>();
    const running = items.filter((item) => stateOf(item.State) === 'running');
    let next = 0;
    const worker = async () => {
      while (next < running.length && deadline - now() > 0) {
        const id = String(running[next++].Id);
        try {
          const stats = await engineGet(socket, `/containers/${id}/stats?stream=false&one-shot=true`, {
            timeoutMs: timeout(),
            maxBytes: this.options.statsMaxBytes ?? STATS_MAX_BYTES,
          });
          const { now: reading, pre } = readingOf(obj(stats), now());
          readings.set(id, reading);
          // An engine that filled precpu (Podman, older Docker) gives a first CPU figure at once.
          if (pre && !this.previous.has(id)) this.previous.set(id, { ...reading, ...pre });
        } catch {
          // This container's figures stay at 0 this report; the others are unharmed.
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const reports = items.map((item) => {
      const id = String(item.Id);
      const reading = readings.get(id) ?? null;
      return containerReportOf(item, reading, this.previous.get(id) ?? null, this.options.hostMemory);
    });
    this.previous.clear();
    for (const [id, reading] of readings) this.previous.set(id, reading);
    return reports;
  }

  /** The container list from the remembered socket, or the first of the candidates that answers. */
  private async list(timeout: () => number): Promise<[string, Json[]] | null> {
    const candidates = this.socket ? [this.socket, ...this.options.sockets.filter((s) => s !== this.socket)] : this.options.sockets;
    const problems: string[] = [];
    for (const socket of candidates) {
      try {
        const answer = await engineGet(socket, '/containers/json?all=1', {
          timeoutMs: timeout(),
          maxBytes: this.options.listMaxBytes ?? LIST_MAX_BYTES,
        });
        if (!Array.isArray(answer)) throw new Error(`${socket}: the container list is not a list`);
        this.socket = socket;
        this.problem = null;
        // Only items with a hex id are containers the server will take; the first 500 are kept.
        const items = answer.map(obj).filter((item) => typeof item.Id === 'string' && /^[0-9a-f]{12,64}$/i.test(item.Id));
        return [socket, items.slice(0, AGENT_LIMITS.containersMax)];
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    this.socket = null;
    this.problem = problems.join('; ');
    return null;
  }
}

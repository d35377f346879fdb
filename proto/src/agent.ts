/**
 * The agent wire protocol: what the agent program and the server say to each other. Versioned: the agent names its
 * version in the handshake and the server serves every version in `SUPPORTED_AGENT_PROTOCOLS`, so upgrading the
 * server never strands agents still running an older build. A field added after version 1 must be optional and
 * carry a `// since protocol N` comment; a server that needs it checks the connection's version, never its absence.
 *
 * 1. Enrolment (HTTP, once): `POST /api/agents/enroll` with a registration token and the hello → a credential, kept
 *    by the agent in its config file.
 * 2. Streaming (socket.io namespace `/agent`, handshake auth `{ protocol, credential }`): the agent emits `hello`,
 *    then one `report` per interval and, after a reconnect, its buffered reports as `backlog`. Every emit is
 *    acknowledged with an `AgentAck`. The server may emit `config` (a new interval) and `agent.error`.
 */

/** The version this build's agent speaks, and the newest the server understands. */
export const AGENT_PROTOCOL_VERSION = 2;

/**
 * The versions the server accepts, oldest first. Raise `min` only when dropping an old agent is worth it (Beszel keeps
 * serving old agents for several releases); `max` is always the current version.
 */
export const SUPPORTED_AGENT_PROTOCOLS = { min: 1, max: AGENT_PROTOCOL_VERSION } as const;
export const AGENT_NAMESPACE = '/agent';

/** Bounds the server enforces on every message; the agent trims to them before sending. */
export const AGENT_LIMITS = {
  textMax: 255,
  ipAddressesMax: 32,
  disksMax: 64,
  interfacesMax: 64,
  backlogMax: 100,
  /** Seconds. */
  intervalMin: 5,
  intervalMax: 3_600,
  /** A report may be this old (a buffered one) or this far ahead of the server's clock, in milliseconds. */
  reportMaxAgeMs: 24 * 3_600_000,
  reportMaxSkewMs: 5 * 60_000,
  /**
   * Largest byte figure believed (1 EiB): for any one memory, swap, disk or counter value, and for the sum of a
   * report's disks. Kept far below PostgreSQL's bigint (2^63 - 1) so no stored figure or sum can overflow it.
   */
  bytesMax: 2 ** 60,
  /** Largest interface rate believed, KB/s (100 Gbit/s with headroom); the sum of a report's interfaces too. */
  rateMaxKbs: 20_000_000,
  /** Reports an agent keeps while the server is away (a day at one a minute), sent later as backlogs. */
  bufferMax: 1_440,
  /** since protocol 2. */
  diskIoMax: 64,
  sensorsMax: 64,
  containersMax: 500,
  servicesMax: 100,
  /** Container and image names (Docker allows long image references). */
  containerTextMax: 255,
  /** A temperature outside this range is a broken sensor, not a machine. */
  celsiusMin: -60,
  celsiusMax: 200,
} as const;

export const AGENT_DEFAULT_INTERVAL = 60;

export interface AgentHello {
  hostname: string;
  /** Display name asked for with `--name`; the hostname when absent. */
  name?: string;
  ip_addresses: string[];
  /** Distribution or product, e.g. "Debian GNU/Linux 12". */
  os: string;
  /** linux, darwin, win32… */
  platform: string;
  kernel?: string;
  arch?: string;
  cpu_model?: string;
  cpu_cores?: number;
  /** The agent program's own version. */
  agent_version: string;
  /** Seconds between reports, as started (`--interval`); the server may answer another one. */
  interval?: number;
}

export interface AgentDiskReport {
  mount: string;
  fs: string;
  /** Bytes. */
  total: number;
  used: number;
}

export interface AgentInterfaceReport {
  name: string;
  /** KB/s since the previous report. */
  rx_rate: number;
  tx_rate: number;
  /** Cumulative byte counters. */
  rx_bytes: number;
  tx_bytes: number;
}

/** One block device's I/O since the previous report (Linux `/proc/diskstats`; partitions and virtual devices left out). */
export interface AgentDiskIoReport {
  /** Kernel name, e.g. `sda`, `nvme0n1`. */
  device: string;
  /** KB/s read and written. */
  read_rate: number;
  write_rate: number;
  /** Percent of the interval with I/O in flight (`iostat`'s %util), 0–100. */
  busy: number;
}

/** One temperature sensor (Linux hwmon): `<chip> <label>`, e.g. `coretemp Package id 0`. */
export interface AgentSensorReport {
  name: string;
  /** Degrees Celsius. */
  celsius: number;
  /** The chip's own thresholds, when it states them. */
  high?: number;
  critical?: number;
}

export const CONTAINER_STATES = ['created', 'running', 'paused', 'restarting', 'removing', 'exited', 'dead'] as const;
export type ContainerState = (typeof CONTAINER_STATES)[number];
/** `none`: the image defines no health check. */
export const CONTAINER_HEALTHS = ['healthy', 'unhealthy', 'starting', 'none'] as const;
export type ContainerHealth = (typeof CONTAINER_HEALTHS)[number];

/** One Docker or Podman container, read through the Engine API's Unix socket. */
export interface AgentContainerReport {
  /** The first 12 hex digits of its id. */
  id: string;
  /** Without Docker's leading `/`. */
  name: string;
  image: string;
  state: ContainerState;
  health: ContainerHealth;
  /** Percent of the whole host (100 = every core busy); 0 when not running. */
  cpu: number;
  /** Bytes. */
  memory_used: number;
  /** Bytes; 0 when unlimited. */
  memory_limit: number;
  /** KB/s since the previous report. */
  net_rx_rate: number;
  net_tx_rate: number;
  block_read_rate: number;
  block_write_rate: number;
}

export const SERVICE_STATES = ['active', 'inactive', 'failed', 'activating', 'deactivating', 'reloading', 'unknown'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

/** A systemd unit the agent was asked to watch (`--services nginx,postgresql`). */
export interface AgentServiceReport {
  /** The unit's name, e.g. `nginx.service`. */
  name: string;
  state: ServiceState;
  /** systemd's sub-state, e.g. `running`, `dead`, `exited`. */
  sub_state?: string;
}

export interface AgentReport {
  /** Epoch milliseconds at collection. */
  timestamp: number;
  /** Percent, 0–100. */
  cpu: number;
  load?: [number, number, number];
  /** Bytes. */
  memory_total: number;
  memory_used: number;
  swap_total?: number;
  swap_used?: number;
  disks: AgentDiskReport[];
  interfaces: AgentInterfaceReport[];
  /** Seconds since the host booted. */
  uptime?: number;
  /** since protocol 2: per-disk I/O (absent where the OS does not say, e.g. not Linux). */
  disk_io?: AgentDiskIoReport[];
  /** since protocol 2: temperatures. */
  sensors?: AgentSensorReport[];
  /**
   * since protocol 2: containers; null when no Engine API socket is readable (or `--no-containers`), so a server can
   * tell "no containers" from "cannot see them".
   */
  containers?: AgentContainerReport[] | null;
  /** since protocol 2: the watched systemd units. */
  services?: AgentServiceReport[];
}

/** What the server refused of one report and kept the rest (since protocol 2: items, not the whole report). */
export interface AgentItemRefusal {
  /** The item's path, e.g. `report.containers[3].name`, and what was wrong. */
  error: string;
}

export type AgentErrorCode =
  | 'agent.protocolUnsupported'
  | 'agent.credentialInvalid'
  | 'agent.revoked'
  | 'agent.helloRequired'
  | 'agent.messageInvalid'
  | 'agent.rateLimited'
  | 'agent.tooManyFailures';

/**
 * A refusal says how long to wait (`retry_after`, seconds) when waiting helps, as for `agent.rateLimited` and
 * `agent.tooManyFailures`.
 */
export type AgentAck =
  | {
      ok: true;
      interval?: number;
      /** since protocol 2: items of the report the server refused (each named), the rest kept. */
      refused?: AgentItemRefusal[];
    }
  | { ok: false; code: AgentErrorCode; message: string; retry_after?: number };

/** Handshake `auth` of an agent socket. */
export interface AgentHandshakeAuth {
  /** The agent's `AGENT_PROTOCOL_VERSION`; the server refuses one outside `SUPPORTED_AGENT_PROTOCOLS`. */
  protocol: number;
  credential: string;
}

export interface AgentToServerEvents {
  hello: (hello: AgentHello, ack: (result: AgentAck) => void) => void;
  report: (report: AgentReport, ack: (result: AgentAck) => void) => void;
  /** Reports buffered while the server was away, oldest first, at most `AGENT_LIMITS.backlogMax`. */
  backlog: (reports: AgentReport[], ack: (result: AgentAck) => void) => void;
  /** since protocol 2: results of assigned checks, oldest first (buffered ones included), at most `PROBE_LIMITS.resultsMax`. */
  'probe.results': (results: import('./probes').ProbeResultReport[], ack: (result: AgentAck) => void) => void;
}

export interface ServerToAgentEvents {
  config: (config: { interval: number }) => void;
  /** since protocol 2: the checks this agent runs (a full set after each hello, then changes). */
  probes: (message: import('./probes').ProbeAssignmentsMessage) => void;
  /** Sent before the server drops the socket (revoked credential) or when a message was refused. */
  'agent.error': (error: { code: AgentErrorCode; message: string; retry_after?: number }) => void;
}

/** `POST /api/agents/enroll` (public; the registration token is the authority). */
export interface AgentEnrollRequest {
  token: string;
  hello: AgentHello;
}

export interface AgentEnrollResponse {
  success: true;
  agent_id: number;
  credential: string;
  interval: number;
}

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
export const AGENT_PROTOCOL_VERSION = 1;

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
export type AgentAck = { ok: true; interval?: number } | { ok: false; code: AgentErrorCode; message: string; retry_after?: number };

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
}

export interface ServerToAgentEvents {
  config: (config: { interval: number }) => void;
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

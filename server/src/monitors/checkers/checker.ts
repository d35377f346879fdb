import type { AddedMonitorType, Assertion, AssertionSource, DnsRecordType, HttpMethod, MonitorType } from '@vigil/proto';
import type { OutboundScope } from '../../common/outbound';

/** What every checker needs of a monitor, whatever its type. */
interface TargetBase {
  id: number;
  /** Seconds: the whole check (connect, handshake, answer) must end within it. */
  timeout: number;
  assertions: Assertion[];
  /** Whose outbound rules the check connects under: `user` for a monitor a user saved or tests (see OutboundPolicy). */
  scope: OutboundScope;
}

/** Each type's stored settings, as its checker reads them. */
export interface CheckTargets {
  http: TargetBase & {
    type: 'http';
    url: string;
    method: HttpMethod;
    headers: Record<string, string>;
    body: string | null;
    expectedStatus: number;
    ignoreTls: boolean;
    maxRedirects: number;
  };
  tcp: TargetBase & { type: 'tcp'; hostname: string; port: number };
  ping: TargetBase & { type: 'ping'; hostname: string; packetCount: number };
  dns: TargetBase & { type: 'dns'; hostname: string; dnsRecordType: DnsRecordType; dnsServer: string | null };
  tls: TargetBase & { type: 'tls'; hostname: string; port: number; ignoreTls: boolean };
  /** A push monitor's scheduled "check" judges how long ago its last push arrived (read from the database). */
  push: TargetBase & { type: 'push'; interval: number; retryInterval: number };
  websocket: TargetBase & { type: 'websocket'; url: string; message: string | null; ignoreTls: boolean };
  grpc: TargetBase & { type: 'grpc'; hostname: string; port: number; grpcService: string; tls: boolean; ignoreTls: boolean };
  postgres: TargetBase & { type: 'postgres'; connectionString: string; query: string | null };
  mysql: TargetBase & { type: 'mysql'; connectionString: string; query: string | null };
  redis: TargetBase & { type: 'redis'; connectionString: string; query: string | null };
  /** A group is never scheduled: its status is derived from its members (monitors/groups). */
  group: TargetBase & { type: 'group' };
}

/**
 * A type added after the first ones (monitor-type-specs.ts): the shared columns, and its settings as its spec
 * validated them (defaults filled, secrets in clear: only the checker sees them).
 */
export type AddedCheckTarget<T extends AddedMonitorType = AddedMonitorType> = TargetBase & {
  type: T;
  hostname: string;
  port: number | null;
  url: string;
  settings: Record<string, unknown>;
};

type AllCheckTargets = CheckTargets & { [T in AddedMonitorType]: AddedCheckTarget<T> };

export type CheckTarget<T extends MonitorType = MonitorType> = AllCheckTargets[T];

/** A host (a name or an IP literal) and a port a check connects to. */
export interface Endpoint {
  host: string;
  port: number;
}

/** The peer certificate a TLS-using check saw. */
export interface PeerCertificate {
  subject: string;
  issuer: string;
  /** Not after. */
  expiresAt: Date;
  /** SHA-256 fingerprint: a renewed certificate raises its expiry alerts afresh. */
  fingerprint: string;
  /** The name did not match or the chain did not verify (the check fails unless ignoreTls). */
  authorizationError: string | null;
}

/** The registration a domain check read (RDAP): its expiry is announced at the monitor's thresholds, as a certificate's. */
export interface DomainExpiry {
  /** ASCII, lower case, no trailing dot. */
  domain: string;
  expiresAt: Date;
}

/**
 * What a check saw, for the assertions and the record: each field is filled by the types whose checks observe it
 * (see ASSERTION_SOURCES_BY_TYPE); an assertion on a field left undefined sees "nothing".
 */
export interface Observed {
  statusCode?: number;
  /** Text of the answer (HTTP body, first WebSocket message, gRPC status name, push `msg`), at most 64 KiB. */
  body?: string;
  /** Lower-case header names. */
  headers?: Record<string, string>;
  certificate?: PeerCertificate;
  domainExpiry?: DomainExpiry;
  /** One text per answer record (`1.2.3.4`, `10 mail.example.com`), in the order received. */
  dnsAnswers?: string[];
  /** Percent 0–100. */
  packetLoss?: number;
  rowCount?: number;
  /** The first column of the first row (databases) or the command's reply (Redis), as text. */
  value?: string | null;
  /** The added types' figures by source (ntp `offset`, amqp `queueDepth`, smtp `banner`…). */
  metrics?: Partial<Record<AssertionSource, number | string | null>>;
}

/** One probe's outcome before the assertions run. */
export interface ProbeResult {
  /** The probe itself succeeded (connected, answered, expected status…). */
  ok: boolean;
  /** HTTP status (or the type's nearest code, e.g. a DNS rcode), null when none. */
  statusCode: number | null;
  /** Milliseconds until the answer; null when none came. */
  responseTime: number | null;
  /** Why the probe failed, as the history shows it; null when ok. */
  error: string | null;
  checkedAt: Date;
  observed: Observed;
  /**
   * Push monitors only: this "no push" verdict holds when no push came within this many seconds before `checkedAt`.
   * The writer judges that against the stored wait (its start, moved by each push and resume) and drops it otherwise.
   */
  silentFor?: number;
}

/**
 * One checker per type, one file each. `check` never throws: a failure is a result with `ok: false` and its error
 * text.
 */
export interface Checker<T extends MonitorType = MonitorType> {
  readonly type: T;
  /**
   * Its checks wait on work the checker shares among many of them (ping: one fping process per batch), so the
   * scheduler counts them apart from the network slots (see CheckSlots).
   */
  readonly batched?: boolean;
  check(target: CheckTarget<T>): Promise<ProbeResult>;
  /**
   * Where a check of the target connects first (port 0: none, as for ICMP), judged by the outbound policy before a
   * target is saved or tested; null when there is nothing to reach (push) or the target is too malformed to say.
   */
  endpoint(target: CheckTarget<T>): Endpoint | null;
  /** Closes pools and sockets on shutdown. */
  close?(): Promise<void>;
}

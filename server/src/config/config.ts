import { resolve } from 'node:path';
import { CHANNEL_TYPES, channelSpec, MONITOR_LIMITS, type ChannelType } from '@vigil/proto';
import { AddressDenyList } from '../common/outbound';
import { BrowserConfig, loadBrowserConfig } from './browser-config';
import { loadSsoConfig, SsoConfig } from './sso-config';
import { parseTrustProxy, TrustProxy } from './trust-proxy';

export type LogLevel = 'error' | 'warn' | 'log' | 'debug' | 'verbose';
const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];
/** How log lines are written: one JSON object per line (for collectors) or coloured text (for a person). */
export type LogFormat = 'json' | 'pretty';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /**
   * Where the data goes instead when DATA_DIR is not set, Vigil runs as root and the database user cannot enter
   * `./data` (a clone under /root): FALLBACK_DATA_DIR, for tests and packagers, else /var/lib/vigil. Null when DATA_DIR
   * is set, which is then used as given.
   */
  dataDirFallback: string | null;
  /** Absent: the embedded PostgreSQL cluster under `dataDir/pg`. */
  databaseUrl: string | null;
  /** Connections in the pool, to the embedded or the external PostgreSQL. */
  databasePoolSize: number;
  /** Time limit for opening a database connection or waiting for a free one in the pool. */
  databaseConnectTimeoutMs: number;
  /** Time limit of one statement (server-side `statement_timeout`; a dead link is cut shortly after it). */
  databaseStatementTimeoutMs: number;
  /** Which peers may set the client address through `X-Forwarded-For` (login limits, logs, sockets). */
  trustProxy: TrustProxy;
  /** Set: scale-out (checks on BullMQ, sockets over the Redis adapter). Unset: one process does everything in memory. */
  redisUrl: string | null;
  /** Namespace of every Redis key Vigil writes, so several installations (or test runs) can share one Redis. */
  redisPrefix: string;
  /** Address agents and links use; absent means the browser's own origin. */
  publicUrl: string | null;
  /** Absent: generated once and stored in the database. */
  jwtSecret: string | null;
  jwtExpiresIn: string;
  logLevel: LogLevel;
  /** `LOG_FORMAT`; by default pretty when standard output is a terminal, json otherwise. */
  logFormat: LogFormat;
  /** Folder of the built client served with an SPA fallback. */
  clientDir: string;
  /** Folder of the agent program (its bundle in dist/, install scripts in install/), served under /downloads. */
  agentDir: string;
  /**
   * Address ranges that monitor checks and notification deliveries may not connect to, judged on the resolved address
   * at connection time. By default link-local and cloud metadata addresses: a monitoring tool must reach private
   * networks, never the instance metadata that hands out cloud credentials.
   */
  outboundDeny: AddressDenyList;
  /** Ranges also refused to checks of monitors a `user` saved or tests: by default loopback and unspecified addresses. */
  userOutboundDeny: AddressDenyList;
  /** Audit log entries older than this many days are pruned (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** Raw checks one export may stream at most (EXPORT_MAX_ROWS); a range holding more is refused with a 400. */
  exportMaxRows: number;
  /**
   * Unknown credentials (agent tokens, display keys, API keys) one address may present a minute once its burst of 20 is
   * spent (CREDENTIAL_FAILURES_PER_MINUTE): raise it when many agents share one address behind NAT.
   */
  credentialFailuresPerMinute: number;
  monitors: {
    /** Raw checks older than this are pruned (hourly aggregates stay). */
    checkRetentionHours: number;
    aggregateRetentionDays: number;
    /** Checks in flight at once (their network work; storing is queued apart). */
    checkConcurrency: number;
    /**
     * Keep-alive connections the checker opens to one origin (scheme, host, port) at most: a politeness limit. Also
     * each origin's budget of checks in flight: more wait apart without holding a CHECK_CONCURRENCY slot.
     */
    connectionsPerOrigin: number;
    /** Seconds: the shortest interval a monitor may be saved with (MONITOR_MIN_INTERVAL_SECONDS). */
    minIntervalSeconds: number;
    /** A monitor changing status more than this many times within `flappingWindowMs` is flapping. */
    flappingChanges: number;
    /** The flapping window (FLAPPING_WINDOW_MINUTES of ALERT_MINUTE_MS); a flapping monitor settles after this long without a change. */
    flappingWindowMs: number;
    /** Browser checks in flight at once (BROWSER_CHECK_CONCURRENCY): each page costs tens of MB and a core while it renders. */
    browserCheckConcurrency: number;
    /** The Chromium browser checks drive (CHROMIUM_PATH; Debian's package by default). */
    chromiumPath: string;
    /** IANA's RDAP bootstrap file for domains (RFC 9224) that `domain` checks find registries in (RDAP_BOOTSTRAP_URL: tests, offline mirrors). */
    rdapBootstrapUrl: string;
  };
  notifications: {
    /** Base addresses of the hosted services' APIs by channel type, from `<TYPE>_API_URL` (tests point them at a loopback fake). */
    apiUrls: Partial<Record<ChannelType, string>>;
    /** One delivery attempt's whole time limit. */
    timeoutMs: number;
    /** Delay before the first retry; each further retry waits twice as long. */
    retryBaseMs: number;
    /** Attempts before a notification is given up as failed. */
    maxAttempts: number;
    /** Consecutive reports above a threshold before a CPU, memory or disk alert. */
    thresholdReports: number;
    /**
     * The length of a "minute" in reminders, escalation, the flapping window and a status page's incident-draft delay
     * (`ALERT_MINUTE_MS`; tests shorten it).
     */
    alertMinuteMs: number;
    /** The length of a "second" in channel grouping windows (`ALERT_SECOND_MS`; tests shorten it). */
    alertSecondMs: number;
    /** How often the reminder and escalation sweep looks for due alerts (`ALERT_SWEEP_MS`). */
    alertSweepMs: number;
  };
  incidents: {
    /** How often each instance looks for components down long enough to open an incident draft (`INCIDENT_DRAFT_SWEEP_MS`). */
    draftSweepMs: number;
  };
  maintenance: {
    /** How often each instance starts and ends maintenance windows by the clock (`MAINTENANCE_SWEEP_MS`). */
    sweepMs: number;
  };
  /** Framing and external assets (CSP), see browser-config.ts. */
  browser: BrowserConfig;
  /** OpenID Connect providers people may sign in with (`OIDC_*`), see sso-config.ts. */
  sso: SsoConfig;
  webPush: {
    /** Who runs this server, in every VAPID token (push services contact it about problems): a mailto: or https: URL. */
    subject: string;
    /** Accept subscription endpoints on http:// (tests' loopback push service); real push services are https only. */
    allowHttp: boolean;
  };
  agents: {
    /** A dropped agent socket counts as offline after this many seconds without a reconnect. */
    graceSeconds: number;
    /** How long each tier of agent metrics is kept: 1-minute, 5-minute and 1-hour points. */
    minuteRetentionHours: number;
    fiveMinuteRetentionDays: number;
    hourRetentionDays: number;
  };
}

/** Thrown for a bad environment value; `main` prints its one line and exits. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 65535) {
    throw new ConfigError(`${name} must be a port number between 1 and 65535 (got "${raw}")`);
  }
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')})`);
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}://`).join(' or ')}`);
  }
  return raw;
}

/** Every hosted channel service's base address: its spec's `apiUrl`, or `<TYPE>_API_URL` (`PAGERDUTY_API_URL`…). */
function channelApiUrls(env: Env): Partial<Record<ChannelType, string>> {
  const urls: Partial<Record<ChannelType, string>> = {};
  for (const type of CHANNEL_TYPES) {
    const base = channelSpec(type).apiUrl;
    if (base) urls[type] = (url(env, `${type.toUpperCase()}_API_URL`, ['http', 'https']) ?? base).replace(/\/+$/, '');
  }
  return urls;
}

/** IANA's bootstrap file of the domain registries' RDAP services. */
export const DEFAULT_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';

/** Link-local (IPv4 and IPv6) and the cloud metadata addresses (AWS's IPv6 one; the others are link-local IPv4). */
export const DEFAULT_OUTBOUND_DENY = '169.254.0.0/16, fe80::/10, fd00:ec2::254';
/** Loopback and the unspecified addresses, which reach this machine too. */
export const DEFAULT_USER_OUTBOUND_DENY = '127.0.0.0/8, ::1/128, 0.0.0.0/8, ::/128';

function denyList(env: Env, name: 'OUTBOUND_DENY' | 'USER_OUTBOUND_DENY', fallback: string): AddressDenyList {
  try {
    return AddressDenyList.parse(read(env, name) ?? fallback, name);
  } catch (error) {
    throw new ConfigError(`${name} must be a list of IPv4 or IPv6 CIDRs separated by commas: ${(error as Error).message}`);
  }
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

/** The VAPID subject: WEB_PUSH_SUBJECT, else PUBLIC_URL when it is https, else a placeholder address. */
function webPushSubject(env: Env, publicUrl: string | null): string {
  const raw = read(env, 'WEB_PUSH_SUBJECT');
  if (raw === undefined) return publicUrl?.startsWith('https://') ? publicUrl.replace(/\/+$/, '') : 'mailto:vigil@example.invalid';
  if (/^mailto:[^\s@]+@[^\s@]+$/.test(raw) || /^https:\/\/[^\s/]+/i.test(raw)) return raw;
  throw new ConfigError(`WEB_PUSH_SUBJECT must be a mailto: address or an https:// URL (got "${raw}")`);
}

function logFormat(env: Env, terminal: boolean): LogFormat {
  const raw = read(env, 'LOG_FORMAT')?.toLowerCase();
  if (raw === undefined) return terminal ? 'pretty' : 'json';
  if (raw === 'json' || raw === 'pretty') return raw;
  throw new ConfigError(`LOG_FORMAT must be json or pretty (got "${raw}")`);
}

/** Reads and validates the whole environment once; the only place that looks at it. */
export function loadConfig(env: Env = process.env, terminal = process.stdout.isTTY === true): AppConfig {
  const jwtSecret = read(env, 'JWT_SECRET') ?? null;
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters (or unset, to generate one)');
  }
  const jwtExpiresIn = read(env, 'JWT_EXPIRES_IN') ?? '7d';
  if (!/^\d+[smhd]$/.test(jwtExpiresIn)) {
    throw new ConfigError(`JWT_EXPIRES_IN must look like 30m, 12h or 7d (got "${jwtExpiresIn}")`);
  }
  const rawLevel = (read(env, 'LOG_LEVEL') ?? 'log').toLowerCase();
  const logLevel = (rawLevel === 'info' ? 'log' : rawLevel) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${rawLevel}")`);
  }
  const publicUrl = url(env, 'PUBLIC_URL', ['http', 'https']);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres', 'postgresql']);
  const redisUrl = url(env, 'REDIS_URL', ['redis', 'rediss']);
  if (redisUrl && !databaseUrl) {
    // Instances sharing work must share one database; the embedded one belongs to a single process.
    throw new ConfigError('REDIS_URL needs DATABASE_URL: instances that share work must share one PostgreSQL');
  }
  const redisPrefix = read(env, 'REDIS_PREFIX') ?? 'vigil';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(redisPrefix)) {
    throw new ConfigError(`REDIS_PREFIX must be 1 to 64 letters, digits or _ . : - (got "${redisPrefix}")`);
  }
  const trustProxy = parseTrustProxy(read(env, 'TRUST_PROXY'));
  if ('error' in trustProxy) throw new ConfigError(trustProxy.error);
  // The test clock of alert timing: minutes of reminders, escalation and the flapping window.
  const alertMinuteMs = integer(env, 'ALERT_MINUTE_MS', 60_000, 10, 60_000);
  return {
    port: port(env, 'PORT', 3000),
    host: read(env, 'HOST') ?? '0.0.0.0',
    dataDir: resolve(read(env, 'DATA_DIR') ?? 'data'),
    dataDirFallback: read(env, 'DATA_DIR') === undefined ? resolve(read(env, 'FALLBACK_DATA_DIR') ?? '/var/lib/vigil') : null,
    databaseUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    databaseConnectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5000, 500, 60_000),
    databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 500, 600_000),
    trustProxy,
    redisUrl,
    redisPrefix,
    publicUrl: publicUrl?.replace(/\/+$/, '') ?? null,
    jwtSecret,
    jwtExpiresIn,
    logLevel,
    logFormat: logFormat(env, terminal),
    clientDir: resolve(read(env, 'CLIENT_DIR') ?? resolve(__dirname, '../../../client/dist')),
    agentDir: resolve(read(env, 'AGENT_DIR') ?? resolve(__dirname, '../../../agent')),
    outboundDeny: denyList(env, 'OUTBOUND_DENY', DEFAULT_OUTBOUND_DENY),
    userOutboundDeny: denyList(env, 'USER_OUTBOUND_DENY', DEFAULT_USER_OUTBOUND_DENY),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    exportMaxRows: integer(env, 'EXPORT_MAX_ROWS', 500_000, 100, 10_000_000),
    credentialFailuresPerMinute: integer(env, 'CREDENTIAL_FAILURES_PER_MINUTE', 60, 1, 6_000),
    monitors: {
      checkRetentionHours: integer(env, 'CHECK_RETENTION_HOURS', 48, 25, 24 * 90),
      aggregateRetentionDays: integer(env, 'AGGREGATE_RETENTION_DAYS', 400, 91, 3650),
      checkConcurrency: integer(env, 'CHECK_CONCURRENCY', 256, 1, 10_000),
      connectionsPerOrigin: integer(env, 'CHECK_CONNECTIONS_PER_ORIGIN', 32, 1, 1024),
      minIntervalSeconds: integer(env, 'MONITOR_MIN_INTERVAL_SECONDS', MONITOR_LIMITS.intervalMin, MONITOR_LIMITS.intervalMin, 3600),
      flappingChanges: integer(env, 'FLAPPING_CHANGES', 5, 2, 1000),
      flappingWindowMs: integer(env, 'FLAPPING_WINDOW_MINUTES', 10, 1, 1440) * alertMinuteMs,
      browserCheckConcurrency: integer(env, 'BROWSER_CHECK_CONCURRENCY', 2, 1, 16),
      chromiumPath: read(env, 'CHROMIUM_PATH') ?? '/usr/bin/chromium',
      rdapBootstrapUrl: url(env, 'RDAP_BOOTSTRAP_URL', ['http', 'https']) ?? DEFAULT_RDAP_BOOTSTRAP_URL,
    },
    notifications: {
      apiUrls: channelApiUrls(env),
      timeoutMs: integer(env, 'NOTIFICATION_TIMEOUT_SECONDS', 10, 1, 120) * 1000,
      retryBaseMs: integer(env, 'NOTIFICATION_RETRY_BASE_MS', 30_000, 100, 3_600_000),
      maxAttempts: integer(env, 'NOTIFICATION_MAX_ATTEMPTS', 7, 1, 20),
      thresholdReports: integer(env, 'ALERT_THRESHOLD_REPORTS', 3, 1, 1000),
      alertMinuteMs,
      alertSecondMs: integer(env, 'ALERT_SECOND_MS', 1000, 1, 1000),
      alertSweepMs: integer(env, 'ALERT_SWEEP_MS', 15_000, 50, 600_000),
    },
    incidents: {
      draftSweepMs: integer(env, 'INCIDENT_DRAFT_SWEEP_MS', 30_000, 50, 600_000),
    },
    maintenance: {
      sweepMs: integer(env, 'MAINTENANCE_SWEEP_MS', 5_000, 50, 600_000),
    },
    browser: loadBrowserConfig(env, publicUrl),
    sso: loadSsoConfig(env),
    webPush: { subject: webPushSubject(env, publicUrl), allowHttp: flag(env, 'WEB_PUSH_ALLOW_HTTP', false) },
    agents: {
      graceSeconds: integer(env, 'AGENT_GRACE_SECONDS', 10, 1, 600),
      minuteRetentionHours: integer(env, 'AGENT_METRICS_MINUTE_HOURS', 48, 2, 24 * 30),
      fiveMinuteRetentionDays: integer(env, 'AGENT_METRICS_FIVE_MINUTE_DAYS', 30, 2, 365),
      hourRetentionDays: integer(env, 'AGENT_METRICS_HOUR_DAYS', 365, 31, 3650),
    },
  };
}

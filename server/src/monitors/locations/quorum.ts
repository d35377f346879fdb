import { LOCATION_STALE_INTERVALS, locationAgentId, type LocationId, type LocationStatus, type QuorumRule } from '@vigil/proto';

/** A location's last stored result. */
export interface LocationResult {
  status: 'up' | 'degraded' | 'down';
  checkedAt: Date;
  responseTime: number | null;
  error: string | null;
}

export interface QuorumInput {
  locations: readonly LocationId[];
  results: ReadonlyMap<LocationId, LocationResult>;
  /** Agents online now (their locations can be known). */
  online: ReadonlySet<number>;
  /** Display names by location, for the error text. */
  names: ReadonlyMap<LocationId, string>;
  quorum: QuorumRule;
  quorumMin: number | null;
  /** Seconds. */
  interval: number;
  timeout: number;
  now: Date;
}

export interface QuorumVerdict {
  /** `unreachable`: no location is known (every agent offline or silent, and no server result). */
  outcome: 'up' | 'degraded' | 'down' | 'unreachable';
  known: number;
  failing: LocationId[];
  /** Mean latency of the known successful locations (ms); null when none. */
  responseTime: number | null;
  /** Names the failing locations and what each saw; null when none failed. */
  error: string | null;
}

/** At most this much of each location's error goes into the combined text, so several fit one message. */
const ERROR_PER_LOCATION = 200;

/**
 * A location's standing now: its result while fresh (LOCATION_STALE_INTERVALS intervals plus the timeout) and, for an
 * agent, while the agent is online; `unknown` otherwise, `pending` before any result.
 */
export function locationStatus(
  location: LocationId,
  result: LocationResult | undefined,
  online: ReadonlySet<number>,
  interval: number,
  timeout: number,
  now: Date,
): LocationStatus {
  const agentId = locationAgentId(location);
  if (agentId !== null && agentId !== undefined && !online.has(agentId)) return 'unknown';
  if (!result) return 'pending';
  const staleAfterMs = (LOCATION_STALE_INTERVALS * interval + timeout) * 1000;
  return now.getTime() - result.checkedAt.getTime() > staleAfterMs ? 'unknown' : result.status;
}

/**
 * The monitor's verdict from its locations (QUORUM_RULES): down when any / strictly more than half / at least
 * `quorumMin` of the known locations fail. Not down but with a failing or degraded location: degraded, naming them,
 * so a partial outage shows without paging anyone.
 */
export function quorumVerdict(input: QuorumInput): QuorumVerdict {
  const known: Array<{ location: LocationId; result: LocationResult }> = [];
  for (const location of input.locations) {
    const result = input.results.get(location);
    const status = locationStatus(location, result, input.online, input.interval, input.timeout, input.now);
    if (result && (status === 'up' || status === 'degraded' || status === 'down')) known.push({ location, result });
  }
  const failing = known.filter(({ result }) => result.status === 'down');
  const timed = known.filter(({ result }) => result.status !== 'down' && result.responseTime !== null);
  const responseTime = timed.length ? Math.round(timed.reduce((sum, { result }) => sum + result.responseTime!, 0) / timed.length) : null;
  const verdict = { known: known.length, failing: failing.map(({ location }) => location), responseTime };
  if (!known.length) return { ...verdict, outcome: 'unreachable', error: `No location could check it (${input.locations.length} unknown)` };
  const down =
    input.quorum === 'any'
      ? failing.length > 0
      : input.quorum === 'majority'
        ? failing.length * 2 > known.length
        : failing.length >= (input.quorumMin ?? 1);
  const degraded = known.filter(({ result }) => result.status === 'degraded');
  const error = describe([...failing, ...degraded], known.length, input.names);
  if (down) return { ...verdict, outcome: 'down', error };
  return { ...verdict, outcome: failing.length || degraded.length ? 'degraded' : 'up', error };
}

/** "2 of 3 locations fail: server: Timeout after 10 s; web-1: Connection refused". */
function describe(
  troubled: Array<{ location: LocationId; result: LocationResult }>,
  known: number,
  names: ReadonlyMap<LocationId, string>,
): string | null {
  if (!troubled.length) return null;
  const failing = troubled.filter(({ result }) => result.status === 'down').length;
  const head = failing ? `${failing} of ${known} locations fail` : `${troubled.length} of ${known} locations degraded`;
  const parts = troubled.map(({ location, result }) => {
    const seen = (result.error ?? result.status).slice(0, ERROR_PER_LOCATION);
    return `${names.get(location) ?? location}: ${seen}`;
  });
  return `${head}: ${parts.join('; ')}`;
}

import { AGENT_LIMITS, PROBE_LIMITS, type ProbeResultReport } from '@vigil/proto';
import { MessageError, num, type Checked } from '../agents/agent-validation';

function flag(value: unknown, path: string, required: boolean): boolean | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'boolean') throw new MessageError(`${path} must be true or false`);
  return value;
}

/** A checker's error text as stored: cut to its bound, without the control characters PostgreSQL or screens choke on. */
function errorText(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new MessageError(`${path} must be text`);
  return value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').slice(0, PROBE_LIMITS.errorMax);
}

function resultOf(input: Record<string, unknown>, path: string, assigned: ReadonlyMap<number, unknown>, now: number): ProbeResultReport {
  const monitorId = num(input.monitor_id, `${path}.monitor_id`, 1, 2_147_483_647, { integer: true })!;
  // The one rule that guards other monitors: an agent speaks only for the checks it was given.
  if (!assigned.has(monitorId)) throw new MessageError(`${path}.monitor_id ${monitorId} is not assigned to this agent`);
  const checkedAt = num(input.checked_at, `${path}.checked_at`, now - AGENT_LIMITS.reportMaxAgeMs, now + AGENT_LIMITS.reportMaxSkewMs)!;
  const soft = flag(input.soft, `${path}.soft`, false);
  return {
    monitor_id: monitorId,
    checked_at: checkedAt,
    ok: flag(input.ok, `${path}.ok`, true)!,
    ...(soft === undefined ? {} : { soft }),
    status_code: num(input.status_code, `${path}.status_code`, 0, 999, { required: false, integer: true }) ?? null,
    response_time:
      num(input.response_time, `${path}.response_time`, 0, PROBE_LIMITS.responseTimeMax, { required: false, integer: true }) ?? null,
    error: errorText(input.error, `${path}.error`),
  };
}

/**
 * A `probe.results` message, item by item: a list of at most `PROBE_LIMITS.resultsMax` results (else refused whole),
 * each kept or refused alone and named, so a result for a monitor the agent was not given (forged, or buffered before
 * the check was taken from it), from the future or the far past, or with an absurd latency never costs the agent its
 * other results. `assigned`: the monitor ids this agent's socket was sent.
 */
export function checkProbeResults(
  message: unknown,
  assigned: ReadonlyMap<number, unknown>,
  now = Date.now(),
): Checked<ProbeResultReport[]> {
  if (!Array.isArray(message)) return { ok: false, error: 'results must be a list' };
  if (message.length > PROBE_LIMITS.resultsMax) return { ok: false, error: `results must have at most ${PROBE_LIMITS.resultsMax} items` };
  const value: ProbeResultReport[] = [];
  const refused: string[] = [];
  message.forEach((raw: unknown, i) => {
    try {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new MessageError(`results[${i}] must be an object`);
      value.push(resultOf(raw as Record<string, unknown>, `results[${i}]`, assigned, now));
    } catch (error) {
      if (!(error instanceof MessageError)) throw error;
      refused.push(error.message);
    }
  });
  return refused.length ? { ok: true, value, refused } : { ok: true, value };
}

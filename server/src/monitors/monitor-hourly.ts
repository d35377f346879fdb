import type { EntityManager } from 'typeorm';
import { execute } from '../database/rows';
import type { CheckStatus } from './monitor-state';
import type { ResultInput } from './monitors.repository';

/** The hour's counters added to from `source` (`v` for the plain update, `excluded` for the upsert): one list for both. */
const addTo = (source: string) =>
  [
    ...['checks', 'up', 'degraded', 'unreachable', 'maintenance', 'response_sum', 'response_count'].map(
      (c) => `${c} = h.${c} + ${source}.${c}`,
    ),
    `response_max = GREATEST(h.response_max, ${source}.response_max)`,
  ].join(', ');

/**
 * Folds results into the hourly aggregates; rows are summed per (monitor, hour) first, as one upsert may not touch a
 * row twice. `up` counts every success (degraded ones too: uptime counts them as up); `degraded` and `unreachable`
 * count those apart (an unreachable check is a failure, down for uptime). A check in maintenance counts in
 * `maintenance` only, not in `checks` nor `up`: uptime counts it neither way (its response time still counts).
 */
export async function addToHourly(manager: EntityManager, results: Array<{ input: ResultInput; check: CheckStatus }>): Promise<void> {
  const buckets = new Map<string, HourlyBucket>();
  for (const { input, check } of results) {
    const hour = new Date(Math.floor(input.checkedAt.getTime() / 3_600_000) * 3_600_000);
    const key = `${input.monitorId}:${hour.getTime()}`;
    const bucket = buckets.get(key) ?? {
      monitorId: input.monitorId,
      hour,
      checks: 0,
      up: 0,
      degraded: 0,
      unreachable: 0,
      maintenance: 0,
      sum: 0,
      count: 0,
      max: null,
    };
    if (check === 'maintenance') bucket.maintenance += 1;
    else bucket.checks += 1;
    if (input.ok && check !== 'maintenance') bucket.up += 1;
    if (check === 'degraded') bucket.degraded += 1;
    if (check === 'unreachable') bucket.unreachable += 1;
    if (input.responseTime !== null) {
      bucket.sum += input.responseTime;
      bucket.count += 1;
      bucket.max = Math.max(bucket.max ?? 0, input.responseTime);
    }
    buckets.set(key, bucket);
  }
  const rows = [...buckets.values()];
  // The hour's row exists for all but a monitor's first check of the hour: a plain UPDATE adds to it (one WAL record,
  // where ON CONFLICT DO UPDATE also logs a row lock); the upsert takes the rest, and a row another batch inserted meanwhile.
  await execute(
    manager,
    `WITH v AS (
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::int[], $5::bigint[], $6::int[], $7::int[], $8::int[], $9::int[],
         $10::int[]) AS v(monitor_id, hour, checks, up, response_sum, response_count, response_max, degraded, unreachable, maintenance)
     ), added AS (
       UPDATE monitor_hourly h SET ${addTo('v')}
       FROM v WHERE h.monitor_id = v.monitor_id AND h.hour = v.hour
       RETURNING h.monitor_id, h.hour
     )
     INSERT INTO monitor_hourly AS h (monitor_id, hour, checks, up, response_sum, response_count, response_max, degraded, unreachable,
       maintenance)
     SELECT * FROM v WHERE NOT EXISTS (SELECT 1 FROM added a WHERE a.monitor_id = v.monitor_id AND a.hour = v.hour)
     ON CONFLICT (monitor_id, hour) DO UPDATE SET ${addTo('excluded')}`,
    [
      rows.map((r) => r.monitorId),
      rows.map((r) => r.hour),
      rows.map((r) => r.checks),
      rows.map((r) => r.up),
      rows.map((r) => r.sum),
      rows.map((r) => r.count),
      rows.map((r) => r.max),
      rows.map((r) => r.degraded),
      rows.map((r) => r.unreachable),
      rows.map((r) => r.maintenance),
    ],
  );
}

interface HourlyBucket {
  monitorId: number;
  hour: Date;
  checks: number;
  up: number;
  degraded: number;
  unreachable: number;
  maintenance: number;
  sum: number;
  count: number;
  max: number | null;
}

// The probe case of `bench:agents` (`--probes N`), on the benchmark's side: the monitors the fleet's agents are
// assigned, and the figures of their results (fleet sends and acks, the subscriber's `monitor.location` pushes, the
// server's counters and stored rows). The fleet's side is probe-schedule.mjs.
import { api, f, freePort, log, percentile } from './measure.mjs';

const PROGRESS_EVERY_MS = 10_000;

/**
 * Creates `perAgent` TCP monitors checked from each agent only (`locations: ['agent:<id>']`, so the server never
 * probes them itself) through the API as the admin, `concurrency` requests in flight. The port is one nothing
 * listens on; the fleet makes its results up, so it is never connected to either.
 */
export async function createProbeMonitors(base, token, agentIds, { perAgent, intervalS, concurrency }) {
  const port = await freePort();
  const bodies = [];
  for (const agentId of agentIds) {
    if (agentId === undefined) continue;
    for (let k = 0; k < perAgent; k += 1) {
      bodies.push({
        name: `bench-probe-${agentId}-${k}`,
        type: 'tcp',
        hostname: '127.0.0.1',
        port,
        interval: intervalS,
        retries: 0,
        locations: [`agent:${agentId}`],
      });
    }
  }
  log(`creating ${bodies.length} monitors (${perAgent} per agent at ${intervalS} s, ${concurrency} requests in flight)`);
  const started = Date.now();
  const latencies = [];
  const failures = [];
  let next = 0;
  let created = 0;
  let lastProgress = started;
  async function worker() {
    while (next < bodies.length) {
      const body = bodies[next];
      next += 1;
      const t = performance.now();
      const response = await api(base, token, 'POST', '/api/monitors', body);
      latencies.push(performance.now() - t);
      if (response.status === 201) created += 1;
      else failures.push(`${body.name}: ${response.status} ${response.text.slice(0, 200)}`);
      if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        log(`  created ${created}/${bodies.length} (${f(created / ((Date.now() - started) / 1000))}/s)`);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, worker));
  const seconds = (Date.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const result = {
    asked: bodies.length,
    created,
    failed: failures.length,
    seconds,
    perSecond: created / seconds,
    requestMs: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.length ? sorted[sorted.length - 1] : NaN },
  };
  log(
    `  created ${created} monitors in ${f(seconds, 1)} s (${f(result.perSecond)}/s), ${failures.length} failed; request p50 ${f(result.requestMs.p50)} ms, p99 ${f(result.requestMs.p99)} ms`,
  );
  for (const failure of failures.slice(0, 5)) log(`  failed: ${failure}`);
  return result;
}

/** Location results stored with a checked_at in [from, to), and the table's size (PostgreSQL mode). */
export async function storedLocationChecks(client, from, to) {
  const [row] = (
    await client.query(
      `SELECT (SELECT count(*) FROM location_checks WHERE checked_at >= $1 AND checked_at < $2)::bigint AS in_window,
              pg_total_relation_size('location_checks')::bigint AS bytes`,
      [new Date(from), new Date(to)],
    )
  ).rows;
  return { inWindow: Number(row.in_window), bytes: Number(row.bytes) };
}

const delta = (m0, m1, name) => (m1[name] === undefined ? null : m1[name] - (m0[name] ?? 0));

/** The probe figures of the window, from the fleet processes' and the subscriber's stats and two metrics reads. */
export function probeFigures({
  perAgent,
  intervalS,
  created,
  checksHeld,
  fleetStats,
  subStats,
  m0,
  m1,
  seconds,
  stored,
  serverCpuSeconds,
}) {
  const probes = fleetStats.map((s) => s.probes);
  const sum = (key) => probes.reduce((a, p) => a + p[key], 0);
  const sorted = Float64Array.from(probes.flatMap((p) => p.latencies)).sort();
  const acked = sum('acked');
  const refused = sum('refused');
  const pushes = subStats.locations;
  const accepted = delta(m0, m1, 'vigil_probe_results_total');
  const skipped = { notConnected: 0, late: 0, unassigned: 0 };
  const refusalCodes = {};
  for (const p of probes) {
    for (const key of Object.keys(skipped)) skipped[key] += p.skipped[key];
    for (const [code, n] of Object.entries(p.counters.refusalCodes)) refusalCodes[code] = (refusalCodes[code] ?? 0) + n;
  }
  return {
    perAgent,
    intervalSeconds: intervalS,
    monitors: created,
    checksHeld,
    slots: sum('slots'),
    expectedPerSecond: sum('slots') / intervalS,
    sentInWindow: sum('inWindow'),
    sentPerSecond: sum('inWindow') / seconds,
    acked,
    ackedPerSecond: acked / seconds,
    refused,
    rejected: sum('rejected'),
    refusalCodes,
    ackTimedOut: sum('timedOut'),
    pendingAtEnd: sum('pending'),
    skipped,
    assignmentMessages: probes.reduce((a, p) => a + p.counters.messages, 0),
    ackLatencyMs: {
      count: sorted.length,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.length ? sorted[sorted.length - 1] : NaN,
    },
    pushes: {
      ofResultsSentInWindow: pushes.ofResultsSentInWindow,
      perSecond: pushes.arrivedInWindow / seconds,
      deliveredPercent: acked - refused ? (pushes.ofResultsSentInWindow / (acked - refused)) * 100 : NaN,
      monitorsSeen: pushes.monitorsSeen,
      repeats: pushes.counters.repeats,
    },
    pushLatencyMs: pushes.latency,
    serverCounters: {
      acceptedInWindow: accepted,
      refusedInWindow: delta(m0, m1, 'vigil_probe_results_refused_total'),
      rateLimitedInWindow: delta(m0, m1, 'vigil_agent_messages_rate_limited_total'),
    },
    storedInWindow: stored?.inWindow ?? null,
    locationChecksBytes: stored?.bytes ?? null,
    serverCpuMsPerResult: accepted ? (serverCpuSeconds * 1000) / accepted : NaN,
  };
}

/** The printed lines of probeFigures. */
export function probeLines(p) {
  const counter = (value) => (value === null ? 'absent' : String(value));
  return [
    `  probe case               ${p.monitors} monitors, ${p.perAgent} per agent at ${p.intervalSeconds} s; ${p.checksHeld} checks assigned to the fleet, ${p.slots} scheduled ` +
      `(${f(p.expectedPerSecond, 1)} results/s expected), ${p.assignmentMessages} probes messages received; ` +
      `one result per probe.results message (real agents batch a second's results: this is the harder case)`,
    `  probe results/s          ${f(p.ackedPerSecond, 1)} acknowledged, ${f(p.sentPerSecond, 1)} sent; in window ${p.sentInWindow} sent, ${p.acked} acked, ${p.refused} refused (items), ` +
      `${p.rejected} rejected whole${Object.keys(p.refusalCodes).length ? ` ${JSON.stringify(p.refusalCodes)}` : ''}, ${p.ackTimedOut} ack timeouts, ${p.pendingAtEnd} unanswered; ` +
      `skipped: ${p.skipped.notConnected} not connected, ${p.skipped.late} late, ${p.skipped.unassigned} unassigned`,
    `  result → ack latency     p50 ${f(p.ackLatencyMs.p50)} ms, p99 ${f(p.ackLatencyMs.p99)} ms, max ${f(p.ackLatencyMs.max)} ms`,
    `  location pushes          ${p.pushes.ofResultsSentInWindow} of the window's results (${f(p.pushes.deliveredPercent, 2)} % of acked and not refused), ${f(p.pushes.perSecond, 1)}/s received, ` +
      `${p.pushes.monitorsSeen} monitors seen, ${p.pushes.repeats} repeats of an older result over the run (an agent came or went)` +
      (p.storedInWindow === null
        ? ''
        : `; ${p.storedInWindow} of the window's results stored in location_checks (${f(p.locationChecksBytes / 2 ** 20, 1)} MiB)`),
    `  ingest → stored → pushed p50 ${f(p.pushLatencyMs.p50)} ms, p95 ${f(p.pushLatencyMs.p95)} ms, p99 ${f(p.pushLatencyMs.p99)} ms, max ${f(p.pushLatencyMs.max)} ms ` +
      `(mean ${f(p.pushLatencyMs.mean, 1)} ms, ${p.pushLatencyMs.count} pushes)`,
    `  probe server counters    in the window: vigil_probe_results_total +${counter(p.serverCounters.acceptedInWindow)}, vigil_probe_results_refused_total +${counter(p.serverCounters.refusedInWindow)}, ` +
      `messages rate-limited +${counter(p.serverCounters.rateLimitedInWindow)}; server ${f(p.serverCpuMsPerResult, 3)} ms CPU per result (reports included)`,
  ];
}

// The printout of `npm run bench:checker`: one block of lines per run, then the run's figures as one JSON line.
import { readFileSync } from 'node:fs';
import { mixLines } from './checker-mix.mjs';
import { diskLines } from './disk-writes.mjs';
import { f } from './measure.mjs';

/** Where a check's time goes, in order: due → start, the network work, hand-over → its batch, the batch's write. */
export const CHECK_PARTS = ['slot_wait', 'request', 'write_wait', 'write'];

function serverLogFindings(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { lines: 0, problems: [] };
  }
  const lines = text.split('\n').filter(Boolean);
  const problems = lines.filter((line) => /error|warn|fail|exception|unhandled/i.test(line));
  return { lines: lines.length, problems };
}

function timeText(part, h) {
  const label = part.replace('_', ' ');
  return h ? `${label} ${f(h.mean, 1)} / ${f(h.p50, 1)} / ${f(h.p99, 1)} ms (${h.count})` : `${label} -`;
}

export function print(r, INTERVAL_S) {
  const findings = serverLogFindings(r.serverLog);
  const lines = [
    `${r.mode}: ${r.monitors} monitors at ${INTERVAL_S} s (created in ${f(r.createSeconds, 1)} s, ${r.createFailures} failed, server CPU meanwhile ${f(r.createCpuPercent.server)} %` +
      (r.createCpuPercent.postgres === null ? '' : `, PostgreSQL ${f(r.createCpuPercent.postgres)} %`) +
      `), ` +
      `window ${f(r.windowSeconds, 0)} s after ${r.warmupSeconds} s warm-up; ${r.origins} target origin(s), answers after ${r.targetDelayMs} ms`,
    ...(r.mix
      ? [`  mix ${r.mix.text}: per type (lateness = arrival or start − slot; push: sent − planned)`, ...mixLines(r.mix.perType)]
      : []),
    ...(r.mix
      ? [
          `  mix target (TCP, DNS, SMTP, NTP, MQTT subscriber, NATS responder) CPU ${f(r.mix.targetCpuPercent, 1)} %; rows below count every type (push rows are pushes)`,
          ...Object.entries(r.mix.brokerCpuPercent).map(([type, cpu]) => `  ${type} broker (machine's)  CPU ${f(cpu, 1)} %`),
        ]
      : []),
    `  checks/s                 ${f(r.checksPerSecondTarget, 1)} at the ${r.mix ? 'HTTP ' : ''}target, ${f(r.startsPerSecondServer, 1)} started by the server (expected ${f(r.checksPerSecondExpected, 1)})`,
    `  checks per monitor       expected ${r.perMonitor.expected}, min ${r.perMonitor.min}, max ${r.perMonitor.max}; missed ${r.perMonitor.missed} (${r.perMonitor.monitorsMissing} monitors), ` +
      `extra ${r.perMonitor.extra} (${r.perMonitor.monitorsExtra} monitors), >10 s off slot ${r.perMonitor.offSlot}`,
    `  lateness at target       p50 ${f(r.latenessTarget.p50)} ms, p99 ${f(r.latenessTarget.p99)} ms, p99.9 ${f(r.latenessTarget.p999)} ms, max ${f(r.latenessTarget.max)} ms (${r.latenessTarget.samples} checks due in the window)`,
    ...(r.blackHoled ? [blackHoleLine(r.blackHoled, r.waitingForOriginMax)] : []),
    `  lateness in warm-up      p50 ${f(r.latenessWarmup.p50)} ms, p99 ${f(r.latenessWarmup.p99)} ms, max ${f(r.latenessWarmup.max)} ms at the target (${r.latenessWarmup.samples} slot checks from creation start to window); ` +
      `server: in flight max ${r.latenessWarmup.inFlightMax}, ring p99 max ${f(r.latenessWarmup.ringP99Max)} ms`,
    `  lateness, server ring    p50 ${f(r.latenessRing.p50)} ms, p99 ${f(r.latenessRing.p99)} ms, max ${f(r.latenessRing.max)} ms (last ${r.latenessRing.covers} starts, ${r.latenessRing.inWindow} of them in the window)`,
    `  CPU (100 % = one core)   server ${f(r.cpuPercent.server, 1)} % (kernel ${f(r.cpuPercent.serverKernel, 1)} %, main thread ${f(r.cpuPercent.serverMainThread, 1)} %), target ${f(r.cpuPercent.target, 1)} %` +
      (r.cpuPercent.postgres === null ? '' : `, PostgreSQL ${f(r.cpuPercent.postgres, 1)} %`) +
      `; server + its database processes ${f(r.cpuPercent.tree, 1)} %, its ended children (fping) ${f(r.cpuPercent.endedChildren, 1)} %; whole machine ${f(r.cpuPercent.machine, 1)} % of 2 cores (other test runners in ${r.otherTestRunnersSeen}); server ${f(r.serverCpuMsPerCheck, 2)} ms CPU per check`,
    `  server RSS               ${f(r.rssMiB.idle)} MiB idle, ${f(r.rssMiB.afterCreate)} after creating, window ${f(r.rssMiB.windowStart)} → ${f(r.rssMiB.windowEnd)} MiB (max ${f(r.rssMiB.windowMax)})${collectionNote(r.rssMiB)}; target ${f(r.rssMiB.target)} MiB`,
    `  total (Vigil + its DB)   RSS sum ${f(r.totalMiB.idle.rss)} / PSS ${f(r.totalMiB.idle.pss)} MiB idle, ${f(r.totalMiB.afterCreate.rss)} / ${f(r.totalMiB.afterCreate.pss)} after creating, ` +
      `window end ${f(r.totalMiB.windowEnd.rss)} / ${f(r.totalMiB.windowEnd.pss)} MiB, max ${f(r.totalMiB.windowMaxRss)} / ${f(r.totalMiB.windowMaxPss)} MiB (${r.totalMiB.processes} processes)`,
    `  data folder              ${f(r.dataFolderBytes / 2 ** 20, 1)} MiB under DATA_DIR at the window's end`,
    `  rows written/s           ${f(r.rowsPerSecond, 1)} (${r.rowsInWindow} in the window)`,
    `  bytes per 1,000 checks   ${f(r.bytesPer1000Checks.tablesWindow / 1024, 1)} KiB tables (window delta), ${f(r.bytesPer1000Checks.databaseWindow / 1024, 1)} KiB database (window delta); ` +
      `cumulative: ${f(r.bytesPer1000Checks.checksTableCumulative / 1024, 1)} KiB monitor_checks, ${f(r.bytesPer1000Checks.tablesCumulative / 1024, 1)} KiB with hourly`,
    ...diskLines(r.diskWrites),
    `  database                 monitor_checks ${f(r.database.checksBytes / 2 ** 20, 1)} MiB, monitor_hourly ${f(r.database.hourlyBytes / 2 ** 20, 1)} MiB, whole ${f(r.database.databaseBytes / 2 ** 20, 1)} MiB for ${r.database.rowsTotal} rows`,
    `  in flight                end ${r.inFlight.end}, max seen ${r.inFlight.max}; slowest /api/metrics ${f(r.metricsFetchMs)} ms`,
    `  check time (mean / p50 / p99 in the window)  ${CHECK_PARTS.map((part) => timeText(part, r.checkTime[part])).join('; ')}`,
    `  check time before it (creation, warm-up)     ${CHECK_PARTS.map((part) => timeText(part, r.checkTimeBefore[part])).join('; ')}`,
    `  write queue              max ${f(r.writeQueue.waitingMax)} results waiting (limit ${f(r.writeQueue.limit)}); scheduling held back ${f(r.writeQueue.heldBackMs)} ms in the window`,
    `  event-loop delay p99     worst ${f(r.eventLoopDelayP99Ms.max, 1)} ms, median ${f(r.eventLoopDelayP99Ms.median, 1)} ms (${r.eventLoopDelayP99Ms.reads} reads of /api/metrics, each covering the time since the previous)`,
    `  target                   ${r.target.requests} requests on ${r.target.connections} connections, ${r.target.unknownPaths} to unknown paths`,
    `  server log               ${r.serverLog}: ${findings.lines} lines, ${findings.problems.length} with error/warn/fail`,
    ...findings.problems.slice(0, 5).map((line) => `    ${line.slice(0, 240)}`),
  ];
  console.log(lines.join('\n'));
  console.log(`  json ${JSON.stringify(r)}`);
}

function blackHoleLine(b, waitingMax) {
  return (
    `  black-holed origin       ${b.monitors} TCP monitors (timeout ${b.timeoutSeconds} s), ${b.sampled} read back: lateness (checked_at − slot) p50 ${f(b.p50)} ms, ` +
    `p99 ${f(b.p99)} ms, max ${f(b.max)} ms over ${b.checks} checks due in the window; ${b.probedTimeouts} probes timed out, ${b.waitedOut} waited ` +
    `their timeout for the origin's budget, ${b.up} up, ${b.missed} slots with no check; waiting for the origin max ${waitingMax}` +
    (b.errors.length ? ` (${b.errors.join('; ')})` : '')
  );
}

/**
 * The window held the collection of what creating the monitors left behind when the server's RSS fell this much in
 * it: such a window reads 1–1.5 % of a core higher, so CPU figures are compared between windows alike.
 */
const COLLECTION_FALL_MIB = 100;

function collectionNote({ windowStart, windowMax, windowEnd }) {
  const fall = Math.max(windowStart, windowMax) - windowEnd;
  return fall >= COLLECTION_FALL_MIB ? ` [the window holds the post-creation collection: RSS fell ${fall.toFixed(0)} MiB]` : '';
}

// `npm run bench:checker -- --monitors N --minutes M [--mode embedded|postgres|both] [--warmup S] [--settle-mib R] [--origins O]
//   [--target-delay-ms D] [--mix http:40,tcp:10,ping:10,dns:10,push:5,mqtt:5,amqp:5,nats:5,smtp:5,ntp:5] [--cpu-prof DIR]
//   [--server-node-args "FLAGS"] [--black-holed B --black-hole-timeout S] [--history-hours H]`
//
// N HTTP monitors at a 60 s interval against a keep-alive loopback target in its own process (listening on O ports,
// default 1: each port is an origin with its own connection pool in the checker; monitor i uses port i mod O; every
// answer after D ms, default at once), on the embedded
// PostgreSQL (its processes are the server's children) and/or on PostgreSQL (a fresh database on 127.0.0.1:5432, dropped after).
// After creating the monitors it waits one interval plus a margin (warm-up, so the burst of creation checks is over),
// and (at most 3 min more) until the server's RSS is within R MiB (default 60) of its idle RSS, so the window does not
// hold the collection of what creating the monitors left behind; then measures for M minutes and prints: checks/s,
// p50/p99 schedule lateness, server CPU % and RSS, rows written/s, database size per 1,000 checks. Prints figures; asserts nothing and never fails on a target.
//
// How each figure is obtained (see docs/benchmarks.md, "Checker"):
// - checks/s: requests the target received in the window ÷ window seconds (and the server's own start counter).
// - lateness at the target: every request's arrival time minus the slot it was due on. Slots are the server's own
//   spread (`spreadOffsetMs`, anchored at the epoch, every 60 s), so this is the scheduler's lateness plus the time
//   the HTTP client took to get the request to the target. Only slots inside the window count.
// - lateness (server ring): `vigil_check_lateness_*` read at the end of the window; it covers the last 100,000 check
//   starts, which may reach back before the window (the output says how many of them are in the window).
// - CPU: utime+stime from /proc/<pid>/stat over the window ÷ wall time (100 % = one core); RSS from VmRSS. "total"
//   is the server's process tree: Vigil plus the embedded PostgreSQL it started (RSS summed, PSS shared out).
// - data folder: bytes under DATA_DIR at the end of the window (embedded mode: the whole database).
// - rows written/s and bytes per 1,000 checks: deltas of the server's metrics over the window.
// - disk writes per check: WAL (pg_stat_wal) + data pages written (pg_stat_io, pg_stat_bgwriter before 16) over the
//   window ÷ rows stored, the window opened and closed by a CHECKPOINT (bench/lib/disk-writes.mjs); use `--minutes 60`
//   for the hour the docs quote, `--history-hours 48` for an index holding the raw retention. Cluster-wide counters: on a shared PostgreSQL the other databases' commits are printed.
// - where a check's time goes: the server's histograms (`vigil_check_{slot_wait,request,write_wait,write}_ms`) read at
//   the window's start and end, so mean and p50/p99 cover the window's checks only (percentiles interpolated within
//   buckets). Slot wait is due time → start, request the network work, write wait hand-over → its batch starts storing,
//   write the batch's storing time.
// - write queue: results waiting to be written (`vigil_check_results_waiting`, max of the reads in the window) and the
//   time due checks were held back because it was full (`vigil_check_scheduling_held_ms_total`, window delta).
// - event-loop delay p99: `vigil_event_loop_delay_p99_ms` covers the time since the previous read of /api/metrics,
//   so the reads every 30 s in the window give one p99 each; the worst and the median of them are printed.
//
// --mix TYPE:SHARE,…: SHARE % of N monitors of each type (http, tcp, ping, dns, push, mqtt, amqp, nats, smtp, ntp; not normalised, so
// `--mix ping:15 --monitors 10000` runs the ping share alone). The other figures then cover every type (rows include
// pushes); the HTTP lines only the http monitors. Per type (bench/lib/checker-mix.mjs):
// - http: arrivals at the HTTP target, as above. tcp: accepts at one loopback listener per TCP monitor (the port
//   tells the monitor) in a second target process, which also runs the UDP DNS server on 127.0.0.1. dns: questions
//   for `m<index>.bench.test` arriving there (answered with an A record). Lateness = arrival − slot.
// - ping: 127.0.x.y (all of 127/8 answers on loopback); nothing can see ICMP arrive without privileges, so lateness
//   is the server's stored checked_at (when fping started, after the checker's gathering) − slot (on the server's grain, 10 s at 60 s), read back
//   through GET /api/monitors/:id/checks at the end.
// - push: the bench pushes (GET /api/push/{token}) for each push monitor once a minute, 20 s after its slot, from its
//   creation to the window's end. Lateness = sent − planned (the bench's own timers); failed/late pushes are counted;
//   the server's silence checks store nothing while up, so their lateness is only in the server ring (all types);
//   missed heartbeats are the push monitors' down rows stored in the window.
// - smtp, ntp: one SMTP greeter (220, EHLO, QUIT; `smtpSecurity: nostarttls`) or UDP NTP responder per monitor in the
//   second target process; lateness = accept or request − slot. mqtt: the machine's Mosquitto on 127.0.0.1:1883,
//   each monitor publishing its own message to its own topic; the target's subscriber to every bench topic records
//   each message, so lateness = message seen − slot (after the check's connect, subscribe and publish). nats: the
//   machine's NATS on 127.0.0.1:4222, each monitor requesting on its own subject; the target answers, lateness =
//   request seen − slot. amqp: RabbitMQ on 127.0.0.1:5672 (guest, no queue): nothing of ours sees the connection
//   arrive, so lateness = the stored checked_at (the check's start) − slot. For these five, down = down checks
//   stored in the window; the brokers' CPU (mosquitto, beam.smp, nats-server, every process of the name) is printed.
// - --black-holed B: B TCP monitors more (timeout S s, default 30) on one black-holed loopback origin that drops
//   every SYN (bench/lib/black-hole.mjs). The lines above cover the N healthy monitors only; their own line gives the
//   black-holed ones' lateness from their stored checks (checked_at − slot, a sample of 400), how they ended (probes
//   timed out, or waited their timeout for the origin's budget) and slots with no check.
// - --server-node-args "FLAGS": node options for the server process, e.g. another V8 young-generation size to compare.
// - --cpu-prof DIR: the server runs under `node --cpu-prof` and writes its profile to DIR when it stops (for finding
//   where the CPU goes; the profile covers the whole run, so look at its last samples for the window).
// - CPU per check per type is not separable inside one server: run each type's share alone (as above) and divide
//   the server's CPU by its checks; the mixed run gives the total.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokerCpuSeconds, mixFigures, monitorBody, parseMix, pushFeeder, startMixTarget } from './lib/checker-mix.mjs';
import { CHECK_PARTS, print } from './lib/checker-print.mjs';
import { blackHoledBody, blackHoleFigures, startBlackHole } from './lib/black-hole.mjs';
import { analyseArrivals, startServer, startTarget } from './lib/checker-run.mjs';
import { diskFigures, diskStats } from './lib/disk-writes.mjs';
import {
  api,
  childCpuSeconds,
  cpuSeconds,
  f,
  kernelCpuSeconds,
  mainThreadCpuSeconds,
  folderBytes,
  histogramWindow,
  log,
  machineJiffies,
  metrics,
  option,
  otherTestRunners,
  postgresCpu,
  rssMiB,
  sleep,
  treeCpuSeconds,
  treeMemoryMiB,
} from './lib/measure.mjs';

const require = createRequire(import.meta.url);

const MIX_TEXT = option('mix', null);
const MIX = MIX_TEXT ? parseMix(MIX_TEXT, Math.max(1, Math.floor(Number(option('monitors', 1000))))) : null;
const MONITORS = MIX ? MIX.total : Math.max(1, Math.floor(Number(option('monitors', 1000))));
const MINUTES = Math.max(1, Number(option('minutes', 2)));
const MODE = option('mode', 'both');
const WARMUP_S = Math.max(0, Number(option('warmup', 70)));
/**
 * After the warm-up, the window waits (at most SETTLE_MAX_S) until the server's RSS is within this of its idle RSS:
 * the collection of what creating the monitors left behind (RSS falling 100–170 MiB) came inside some windows and
 * read 1–1.5 % of a core higher, which no steady state has. 0: no wait.
 */
const SETTLE_MIB = Math.max(0, Number(option('settle-mib', 60)));
const SETTLE_MAX_S = 180;
const CREATE_CONCURRENCY = Math.max(1, Math.floor(Number(option('create-concurrency', 32))));
const ORIGINS = Math.max(1, Math.floor(Number(option('origins', 1))));
const TARGET_DELAY_MS = Math.max(0, Number(option('target-delay-ms', 0)));
const BLACK_HOLED = Math.max(0, Math.floor(Number(option('black-holed', 0))));
const BLACK_HOLE_TIMEOUT_S = Math.max(1, Number(option('black-hole-timeout', 30)));
const CPU_PROF_DIR = option('cpu-prof', null);
/** Hours of raw checks written straight into the database before the window (disk writes at a retention's steady state). */
const HISTORY_HOURS = Math.max(0, Math.floor(Number(option('history-hours', 0))));
const EXTRA_NODE_ARGS = (option('server-node-args', '') ?? '').split(' ').filter(Boolean);
const ADMIN_URL = option('postgres', process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const INTERVAL_S = 60;
const INTERVAL_MS = INTERVAL_S * 1000;
const SAMPLE_MS = 5000;
const METRICS_EVERY_MS = 30_000;
if (!['embedded', 'postgres', 'both'].includes(MODE)) {
  console.error('--mode must be embedded, postgres or both');
  process.exit(2);
}

async function createMonitors(base, token, targets, feeder) {
  const total = MONITORS + BLACK_HOLED;
  const ids = new Array(total);
  const failures = [];
  let next = 0;
  let done = 0;
  const started = Date.now();
  let lastReport = started;
  async function worker() {
    while (next < total) {
      const index = next;
      next += 1;
      const body =
        index >= MONITORS
          ? blackHoledBody(index, targets.blackHolePort, { interval: INTERVAL_S, timeout: BLACK_HOLE_TIMEOUT_S })
          : MIX
            ? monitorBody(MIX, index, targets, { interval: INTERVAL_S, timeout: 10 })
            : {
                name: `bench ${index}`,
                url: `http://127.0.0.1:${targets.httpPorts[index % targets.httpPorts.length]}/m/${index}`,
                interval: INTERVAL_S,
                timeout: 10,
                expectedStatus: 200,
              };
      const response = await api(base, token, 'POST', '/api/monitors', body);
      if (response.status === 201) {
        const { monitor } = response.json();
        ids[index] = monitor.id;
        if (monitor.push_token) feeder.add(monitor.id, monitor.push_token);
      } else failures.push(`${index}: ${response.status} ${response.text.slice(0, 200)}`);
      done += 1;
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        log(`  created ${done}/${total}`);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CREATE_CONCURRENCY, total) }, worker));
  return { ids, failures, seconds: (Date.now() - started) / 1000, startedAt: started, endedAt: Date.now() };
}

async function runMode(mode) {
  const stamp = `${mode}-${MONITORS}-${Date.now()}`;
  const logPath = join(tmpdir(), `vigil-bench-checker-${stamp}.log`);
  let database = null;
  let adminClient = null;
  const env = {};
  if (mode === 'postgres') {
    const { Client } = require('pg');
    adminClient = new Client({ connectionString: ADMIN_URL });
    await adminClient.connect();
    database = `vigil_bench_checker_${process.pid}_${Date.now()}`;
    await adminClient.query(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }
  // Embedded: the whole database lives here; on PostgreSQL anything file-based. Kept out of the repository.
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-checker-'));
  // As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the folder.
  if (mode === 'embedded') chmodSync(dataDir, 0o755);
  env.DATA_DIR = dataDir;
  log(`${mode}: server log ${logPath}`);
  const target = await startTarget({ delayMs: TARGET_DELAY_MS, origins: ORIGINS });
  let server = null;
  let mixTarget = null;
  let feeder = null;
  let blackHole = null;
  try {
    if (BLACK_HOLED) blackHole = await startBlackHole();
    if (MIX) mixTarget = await startMixTarget(MIX);
    server = await startServer(env, logPath, [
      ...EXTRA_NODE_ARGS,
      ...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []),
    ]);
    const { base } = server;
    const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
    const registered = await api(base, null, 'POST', '/api/auth/register', credentials);
    if (registered.status >= 300) throw new Error(`register answered ${registered.status}: ${registered.text}`);
    const login = await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password });
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
    const { token } = login.json();
    const idle = { rss: rssMiB(server.pid), total: treeMemoryMiB(server.pid) };

    log(`${mode}: creating ${MONITORS} monitors (${CREATE_CONCURRENCY} requests in flight)`);
    // During creation and warm-up: the server's checks in flight and its ring percentiles every 10 s.
    const early = { inFlightMax: 0, ringP99Max: 0, stop: false };
    const earlySampler = (async () => {
      while (!early.stop) {
        await sleep(10_000);
        if (early.stop) break;
        const m = await metrics(base, token).catch(() => null);
        if (!m) continue;
        early.inFlightMax = Math.max(early.inFlightMax, m.vigil_checks_in_flight);
        early.ringP99Max = Math.max(early.ringP99Max, m.vigil_check_lateness_p99_ms);
        log(
          `  early: started ${m.vigil_checks_started_total}, in flight ${m.vigil_checks_in_flight}, ring p99 ${m.vigil_check_lateness_p99_ms} ms, max ${m.vigil_check_lateness_max_ms} ms, rows ${m.vigil_check_rows_written_total}`,
        );
      }
    })();
    const createCpu0 = { server: cpuSeconds(server.pid), postgres: postgresCpu() };
    feeder = pushFeeder(base, INTERVAL_MS);
    const { tcpPorts, dnsPort, smtpPorts, ntpPorts, runId } = mixTarget ?? {};
    const targets = { httpPorts: target.ports, tcpPorts, dnsPort, smtpPorts, ntpPorts, runId, blackHolePort: blackHole?.port };
    const created = await createMonitors(base, token, targets, feeder);
    const createCpu = {
      server: ((cpuSeconds(server.pid) - createCpu0.server) / created.seconds) * 100,
      postgres: mode === 'postgres' ? ((postgresCpu() - createCpu0.postgres) / created.seconds) * 100 : null,
    };
    const createdCount = created.ids.filter((id) => id !== undefined).length;
    log(`${mode}: created ${createdCount} in ${created.seconds.toFixed(1)} s, ${created.failures.length} failed; warm-up ${WARMUP_S} s`);
    for (const failure of created.failures.slice(0, 5)) log(`  failed: ${failure}`);
    const afterCreate = { rss: rssMiB(server.pid), total: treeMemoryMiB(server.pid) };
    await sleep(Math.max(0, created.endedAt + WARMUP_S * 1000 - Date.now()));
    const settled = await settle(server.pid, idle.rss);
    if (settled.seconds > 0) log(`${mode}: waited ${settled.seconds} s more for the post-creation collection (RSS ${f(settled.rss)} MiB)`);
    early.stop = true;
    await earlySampler;

    // Window start (on a checkpoint: bench/lib/disk-writes.mjs).
    const disk = await diskStats(mode, { dataDir, databaseUrl: env.DATABASE_URL }).catch((error) => ({ error: error.message }));
    if (HISTORY_HOURS && !disk.error) {
      log(`${mode}: writing ${HISTORY_HOURS} h of raw checks`);
      await disk.seedHistory(HISTORY_HOURS);
    }
    const disk0 = disk.error ? null : await disk.start();
    const m0 = await metrics(base, token);
    const t0 = Date.now();
    const cpu0 = {
      tree: treeCpuSeconds(server.pid),
      server: cpuSeconds(server.pid),
      serverKernel: kernelCpuSeconds(server.pid),
      serverMain: mainThreadCpuSeconds(server.pid),
      children: childCpuSeconds(server.pid),
      target: cpuSeconds(target.pid),
      mixTarget: mixTarget ? cpuSeconds(mixTarget.pid) : 0,
      brokers: MIX ? brokerCpuSeconds(MIX) : {},
      postgres: postgresCpu(),
      machine: machineJiffies(),
    };
    const windowMs = MINUTES * INTERVAL_MS;
    const t1 = t0 + windowMs;
    feeder.setStopAt(t1);
    const rss = { server: [rssMiB(server.pid)], target: [rssMiB(target.pid)], total: [treeMemoryMiB(server.pid)] };
    const timeline = [];
    let busySamples = otherTestRunners() > 0 ? 1 : 0;
    let samples = 1;
    let nextMetrics = t0 + METRICS_EVERY_MS;
    log(`${mode}: measuring ${MINUTES} min`);
    while (Date.now() < t1 && !server.exited()) {
      await sleep(Math.min(SAMPLE_MS, t1 - Date.now()));
      rss.server.push(rssMiB(server.pid));
      rss.target.push(rssMiB(target.pid));
      rss.total.push(treeMemoryMiB(server.pid));
      samples += 1;
      if (otherTestRunners() > 0) busySamples += 1;
      if (Date.now() >= nextMetrics && Date.now() < t1 - 1000) {
        nextMetrics += METRICS_EVERY_MS;
        const m = await metrics(base, token);
        timeline.push(m);
        log(
          `  +${((Date.now() - t0) / 1000).toFixed(0)} s: started ${m.vigil_checks_started_total}, in flight ${m.vigil_checks_in_flight}, ` +
            `ring p99 ${m.vigil_check_lateness_p99_ms} ms, rows ${m.vigil_check_rows_written_total}, RSS ${(m.process_resident_memory_bytes / 2 ** 20).toFixed(0)} MiB`,
        );
      }
    }
    const cpu1 = {
      tree: treeCpuSeconds(server.pid),
      server: cpuSeconds(server.pid),
      serverKernel: kernelCpuSeconds(server.pid),
      serverMain: mainThreadCpuSeconds(server.pid),
      children: childCpuSeconds(server.pid),
      target: cpuSeconds(target.pid),
      mixTarget: mixTarget ? cpuSeconds(mixTarget.pid) : 0,
      brokers: MIX ? brokerCpuSeconds(MIX) : {},
      postgres: postgresCpu(),
      machine: machineJiffies(),
    };
    const tEnd = Date.now();
    const m1 = await metrics(base, token);
    const disk1 = disk.error ? null : await disk.end();
    if (server.exited()) throw new Error(`server exited during the run; see ${logPath}`);
    // Requests still in flight at the window's end land within a few seconds.
    await sleep(3000);
    const arrivals = await target.ask('arrivals');
    const targetStats = await target.ask('stats');
    const seconds = (tEnd - t0) / 1000;

    const postgresSeconds = mode === 'postgres' ? cpu1.postgres - cpu0.postgres : null;
    const rows = m1.vigil_check_rows_written_total - m0.vigil_check_rows_written_total;
    const diskWrites = disk.error ? disk : diskFigures(disk0, disk1, rows, await disk.settings(), disk.version);
    await disk.close?.();
    const tableBytes = (m) => m.vigil_monitor_checks_bytes + m.vigil_monitor_hourly_bytes;
    const healthyIds = created.ids.map((id, index) => (index < MONITORS ? id : undefined));
    const httpIds = MIX ? healthyIds.map((id, index) => (MIX.typeOf(index) === 'http' ? id : undefined)) : healthyIds;
    const a = analyseArrivals(arrivals, httpIds, t0, t1, created.startedAt, INTERVAL_MS);
    const mix = MIX && {
      text: MIX_TEXT,
      targetCpuPercent: ((cpu1.mixTarget - cpu0.mixTarget) / seconds) * 100,
      brokerCpuPercent: Object.fromEntries(
        Object.keys(cpu1.brokers).map((type) => [type, ((cpu1.brokers[type] - cpu0.brokers[type]) / seconds) * 100]),
      ),
      perType: await mixFigures({
        mix: MIX,
        ids: created.ids,
        t0,
        t1,
        createdFrom: created.startedAt,
        intervalMs: INTERVAL_MS,
        httpArrivals: arrivals,
        mixTarget,
        base,
        token,
        feeder,
        seconds,
      }),
    };
    const blackHoled =
      BLACK_HOLED > 0
        ? {
            timeoutSeconds: BLACK_HOLE_TIMEOUT_S,
            ...(await blackHoleFigures({
              base,
              token,
              ids: created.ids.map((id, index) => (index >= MONITORS ? id : undefined)),
              t0,
              t1,
              intervalMs: INTERVAL_MS,
            })),
          }
        : null;
    const startsInWindow = m1.vigil_checks_started_total - m0.vigil_checks_started_total;
    const reads = [...timeline, m1];
    const loopP99 = reads.map((m) => m.vigil_event_loop_delay_p99_ms).sort((x, y) => x - y);
    const result = {
      mode,
      mix,
      blackHoled,
      waitingForOriginMax: Math.max(...reads.map((m) => m.vigil_checks_waiting_for_origin ?? 0)),
      monitors: createdCount,
      createFailures: created.failures.length,
      createSeconds: created.seconds,
      createCpuPercent: createCpu,
      minutes: MINUTES,
      warmupSeconds: WARMUP_S,
      settleSeconds: settled.seconds,
      windowSeconds: seconds,
      checksPerSecondTarget: a.arrivalsInWindow / seconds,
      checksPerSecondExpected: httpIds.filter((id) => id !== undefined).length / INTERVAL_S,
      startsPerSecondServer: startsInWindow / seconds,
      perMonitor: {
        expected: a.slotsPerMonitor,
        min: a.min,
        max: a.maxPerMonitor,
        missed: a.missed,
        monitorsMissing: a.monitorsMissing,
        extra: a.extra,
        monitorsExtra: a.monitorsExtra,
        offSlot: a.offSlot,
      },
      latenessTarget: { samples: a.onSlots, p50: a.p50, p99: a.p99, p999: a.p999, max: a.max },
      latenessWarmup: { ...a.warmup, inFlightMax: early.inFlightMax, ringP99Max: early.ringP99Max },
      latenessRing: {
        p50: m1.vigil_check_lateness_p50_ms,
        p99: m1.vigil_check_lateness_p99_ms,
        max: m1.vigil_check_lateness_max_ms,
        covers: Math.min(m1.vigil_checks_started_total, 100_000),
        inWindow: Math.min(startsInWindow, 100_000),
      },
      cpuPercent: {
        server: ((cpu1.server - cpu0.server) / seconds) * 100,
        serverKernel: ((cpu1.serverKernel - cpu0.serverKernel) / seconds) * 100,
        serverMainThread: ((cpu1.serverMain - cpu0.serverMain) / seconds) * 100,
        tree: ((cpu1.tree - cpu0.tree) / seconds) * 100,
        target: ((cpu1.target - cpu0.target) / seconds) * 100,
        // Children the server has waited for: fping's processes (the embedded PostgreSQL's live ones are in `tree`).
        endedChildren: ((cpu1.children - cpu0.children) / seconds) * 100,
        postgres: postgresSeconds === null ? null : (postgresSeconds / seconds) * 100,
        machine: ((cpu1.machine.busy - cpu0.machine.busy) / (cpu1.machine.total - cpu0.machine.total)) * 100,
      },
      otherTestRunnersSeen: `${busySamples}/${samples} samples`,
      serverCpuMsPerCheck: rows ? ((cpu1.server - cpu0.server) * 1000) / rows : NaN,
      rssMiB: {
        idle: idle.rss,
        afterCreate: afterCreate.rss,
        windowStart: rss.server[0],
        windowEnd: rss.server[rss.server.length - 1],
        windowMax: Math.max(...rss.server),
        target: Math.max(...rss.target),
      },
      totalMiB: {
        idle: idle.total,
        afterCreate: afterCreate.total,
        windowEnd: rss.total[rss.total.length - 1],
        windowMaxRss: Math.max(...rss.total.map((t) => t.rss)),
        windowMaxPss: Math.max(...rss.total.map((t) => t.pss)),
        processes: rss.total[rss.total.length - 1].processes,
      },
      dataFolderBytes: folderBytes(dataDir),
      diskWrites,
      rowsPerSecond: rows / seconds,
      rowsInWindow: rows,
      bytesPer1000Checks: {
        tablesWindow: rows ? ((tableBytes(m1) - tableBytes(m0)) / rows) * 1000 : NaN,
        databaseWindow: rows ? ((m1.vigil_database_bytes - m0.vigil_database_bytes) / rows) * 1000 : NaN,
        checksTableCumulative: (m1.vigil_monitor_checks_bytes / m1.vigil_check_rows_written_total) * 1000,
        tablesCumulative: (tableBytes(m1) / m1.vigil_check_rows_written_total) * 1000,
      },
      database: {
        checksBytes: m1.vigil_monitor_checks_bytes,
        hourlyBytes: m1.vigil_monitor_hourly_bytes,
        databaseBytes: m1.vigil_database_bytes,
        rowsTotal: m1.vigil_check_rows_written_total,
      },
      inFlight: {
        end: m1.vigil_checks_in_flight,
        max: Math.max(m1.vigil_checks_in_flight, ...timeline.map((m) => m.vigil_checks_in_flight)),
      },
      metricsFetchMs: Math.max(m0.fetchMs, m1.fetchMs, ...timeline.map((m) => m.fetchMs)),
      checkTime: Object.fromEntries(CHECK_PARTS.map((part) => [part, histogramWindow(m0, m1, `vigil_check_${part}_ms`)])),
      // From the server's start to the window: creating the monitors (each checked at once) and the warm-up.
      checkTimeBefore: Object.fromEntries(CHECK_PARTS.map((part) => [part, histogramWindow({}, m0, `vigil_check_${part}_ms`)])),
      writeQueue: {
        waitingMax: Math.max(...reads.map((m) => m.vigil_check_results_waiting)),
        limit: m1.vigil_check_results_waiting_limit,
        heldBackMs: m1.vigil_check_scheduling_held_ms_total - m0.vigil_check_scheduling_held_ms_total,
      },
      eventLoopDelayP99Ms: {
        max: loopP99[loopP99.length - 1],
        median: loopP99[Math.floor((loopP99.length - 1) / 2)],
        reads: loopP99.length,
      },
      origins: ORIGINS,
      targetDelayMs: TARGET_DELAY_MS,
      target: { requests: targetStats.requests, unknownPaths: targetStats.unknown, connections: targetStats.connections },
      serverLog: logPath,
    };
    return result;
  } finally {
    feeder?.stop();
    if (server) await server.stop();
    await target.stop();
    await mixTarget?.stop();
    await blackHole?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (adminClient) {
      await adminClient
        .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
        .catch((error) => log(`could not drop ${database}: ${error.message}`));
      await adminClient.end();
    }
  }
}

const modes = MODE === 'both' ? ['embedded', 'postgres'] : [MODE];
log(
  `bench:checker ${MONITORS} monitors${MIX ? ` (mix ${MIX_TEXT})` : ''} over ${ORIGINS} origin(s), ${MINUTES} min window, modes ${modes.join(', ')}`,
);
for (const mode of modes) {
  try {
    print(await runMode(mode), INTERVAL_S);
  } catch (error) {
    console.log(`${mode}: run failed: ${error.message}`);
  }
}

/** Waits until the server's RSS is within SETTLE_MIB of `idleRss` (the post-creation collection done), bounded. */
async function settle(pid, idleRss) {
  const started = Date.now();
  let rss = rssMiB(pid);
  while (SETTLE_MIB > 0 && rss > idleRss + SETTLE_MIB && Date.now() - started < SETTLE_MAX_S * 1000) {
    await sleep(5000);
    rss = rssMiB(pid);
  }
  return { seconds: Math.round((Date.now() - started) / 1000), rss };
}

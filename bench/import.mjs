// `npm run bench:import -- [--monitors N] [--interval S] [--kuma-monitors K] [--beats B] [--history raw|daily|none] [--before S]`
//
// Issue 34, requirement 2: a 50 MB Uptime Kuma database imports without blocking checks. Builds a Kuma 2.x `kuma.db`
// (the fixtures' schema, K HTTP monitors, default 500, with B heartbeats each, default 680: about 48 MiB, under the
// 50 MiB upload limit), starts the built server (server/dist, or BENCH_SERVER_DIST) on the embedded PostgreSQL with N
// HTTP monitors (default 1,000) checking a loopback target every S s (default 10), measures a window of checks before
// the import (default 60 s), then uploads the file with history (`--history`, default raw) while polling the
// progress route, and prints: each phase's duration, check lateness p50/p99/max and missed checks before and during
// the import, the event loop's delay and the server's RSS. Prints figures; asserts nothing.
//
// How each figure is obtained (see docs/benchmarks.md, "Import from Uptime Kuma"):
// - lateness and missed checks: the target's arrival log (request arrival − the slot the server's spread put it on,
//   bench/lib/checker-run.mjs analyseArrivals); a window is a whole number of intervals from its start, so each
//   monitor has the same number of slots in it; missed = slots with no request.
// - slot wait: the server's `vigil_check_slot_wait_ms` histogram over the window (due → started, inside the server).
// - phases: the progress route (`GET /api/import/uptime-kuma/jobs/:id`) polled every 100 ms; a phase lasts from the
//   first poll that shows it to the first that shows the next one (so each is ±100 ms).
// - event-loop delay: `vigil_event_loop_delay_{p99,max}_ms` cover the time since the previous read; read every 2 s.
// - per phase: the lateness of the checks whose slot fell inside it (where the import's cost lands).
// - RSS: VmRSS of the server process (not its PostgreSQL) every 100 ms; the peak during the import is printed.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseArrivals, startServer, startTarget } from './lib/checker-run.mjs';
import { buildLargeKumaDb } from './lib/kuma-bench-db.mjs';
import { api, f, histogramWindow, log, metrics, option, otherTestRunners, rssMiB, sleep } from './lib/measure.mjs';

const MONITORS = Math.max(1, Math.floor(Number(option('monitors', 1000))));
const INTERVAL_S = Math.max(10, Math.floor(Number(option('interval', 10))));
const KUMA_MONITORS = Math.max(1, Math.floor(Number(option('kuma-monitors', 500))));
const BEATS = Math.max(1, Math.floor(Number(option('beats', 680))));
const HISTORY = option('history', 'raw');
const BEFORE_S = Math.max(INTERVAL_S, Number(option('before', 60)));
const INTERVAL_MS = INTERVAL_S * 1000;
const CREATE_CONCURRENCY = 32;

async function createMonitors(base, token, port) {
  const ids = new Array(MONITORS);
  let next = 0;
  async function worker() {
    while (next < MONITORS) {
      const index = next;
      next += 1;
      const body = {
        name: `bench ${index}`,
        url: `http://127.0.0.1:${port}/m/${index}`,
        interval: INTERVAL_S,
        timeout: 5,
        expectedStatus: 200,
      };
      const response = await api(base, token, 'POST', '/api/monitors', body);
      if (response.status !== 201) throw new Error(`monitor ${index}: ${response.status} ${response.text.slice(0, 200)}`);
      ids[index] = response.json().monitor.id;
    }
  }
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  return ids;
}

/** Metrics every 2 s until stopped: the worst event-loop delay seen, and the last read. */
function metricsSampler(base, token) {
  const state = { loopP99Max: 0, loopMax: 0, reads: 0, stop: false };
  state.done = (async () => {
    while (!state.stop) {
      await sleep(2000);
      const m = await metrics(base, token).catch(() => null);
      if (!m) continue;
      state.reads += 1;
      state.loopP99Max = Math.max(state.loopP99Max, m.vigil_event_loop_delay_p99_ms);
      state.loopMax = Math.max(state.loopMax, m.vigil_event_loop_delay_max_ms);
    }
  })();
  return state;
}

/** Uploads the file and polls the progress route meanwhile; returns the report, phase times and the RSS peak. */
async function runImport(base, token, bytes, pid) {
  const jobId = `bench-${Date.now()}`;
  const phases = [];
  let rssPeak = 0;
  let finished = false;
  const started = Date.now();
  const upload = fetch(`${base}/api/import/uptime-kuma?history=${HISTORY}&jobId=${jobId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${token}` },
    body: bytes,
  }).then(async (response) => {
    finished = true;
    return { status: response.status, body: await response.json() };
  });
  let pollMax = 0;
  while (!finished) {
    rssPeak = Math.max(rssPeak, rssMiB(pid) ?? 0);
    const asked = performance.now();
    const progress = await api(base, token, 'GET', `/api/import/uptime-kuma/jobs/${jobId}`);
    pollMax = Math.max(pollMax, performance.now() - asked);
    if (progress.status === 200) {
      const { phase, percent } = progress.json();
      if (phases.at(-1)?.phase !== phase) phases.push({ phase, percent, at: Date.now() });
    }
    await sleep(100);
  }
  const result = await upload;
  const ended = Date.now();
  return { result, phases, started, ended, rssPeak, pollMax };
}

/** Lateness and missed checks over whole intervals from `from`, at least until `to`. */
function windowFigures(arrivals, ids, from, to, before, after) {
  const t1 = from + Math.max(1, Math.ceil((to - from) / INTERVAL_MS)) * INTERVAL_MS;
  return {
    ...analyseArrivals(arrivals, ids, from, t1, from, INTERVAL_MS),
    seconds: (t1 - from) / 1000,
    slotWait: histogramWindow(before, after, 'vigil_check_slot_wait_ms'),
  };
}

function printWindow(name, w) {
  console.log(
    `${name.padEnd(16)} ${f(w.seconds).padStart(5)} s  checks ${String(w.onSlots).padStart(6)}  missed ${String(w.missed).padStart(4)}  ` +
      `lateness p50 ${f(w.p50)} ms  p99 ${f(w.p99)} ms  max ${f(w.max)} ms  slot wait p50 ${f(w.slotWait?.p50, 1)} ms  p99 ${f(w.slotWait?.p99, 1)} ms`,
  );
}

async function main() {
  // Port 2 is the imported monitors' origin, apart from the bench monitors' (their first checks come at once).
  const target = await startTarget({ origins: 2 });
  log(`building a Kuma 2.x database: ${KUMA_MONITORS} monitors × ${BEATS} heartbeats`);
  const builtAt = Date.now();
  const bytes = await buildLargeKumaDb({
    monitors: KUMA_MONITORS,
    beatsPerMonitor: BEATS,
    targetBase: `http://127.0.0.1:${target.ports[1]}`,
  });
  log(`  ${f(bytes.length / 1048576, 1)} MiB in ${f((Date.now() - builtAt) / 1000, 1)} s`);
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-import-'));
  chmodSync(dataDir, 0o755); // as root the embedded PostgreSQL runs as an unprivileged user
  const logPath = join(tmpdir(), `vigil-bench-import-${Date.now()}.log`);
  log(`server log ${logPath}`);
  let server = null;
  try {
    server = await startServer({ DATA_DIR: dataDir }, logPath);
    const { base } = server;
    const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
    const registered = await api(base, null, 'POST', '/api/auth/register', credentials);
    if (registered.status >= 300) throw new Error(`register answered ${registered.status}: ${registered.text}`);
    const { token } = (
      await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password })
    ).json();
    log(`creating ${MONITORS} monitors every ${INTERVAL_S} s`);
    const ids = await createMonitors(base, token, target.port);
    const warmup = 2 * INTERVAL_MS + 10_000;
    log(`warm-up ${warmup / 1000} s`);
    await sleep(warmup);
    const sampler = metricsSampler(base, token);
    const idleRss = rssMiB(server.pid);
    const beforeFrom = Date.now();
    const m0 = await metrics(base, token);
    let rssBefore = 0;
    while (Date.now() - beforeFrom < BEFORE_S * 1000) {
      rssBefore = Math.max(rssBefore, rssMiB(server.pid) ?? 0);
      await sleep(100);
    }
    const loopBefore = { p99: sampler.loopP99Max, max: sampler.loopMax };
    sampler.loopP99Max = 0;
    sampler.loopMax = 0;
    const m1 = await metrics(base, token);
    log(`importing (${f(bytes.length / 1048576, 1)} MiB, history ${HISTORY})`);
    const run = await runImport(base, token, bytes, server.pid);
    // Checks due inside the import's last interval arrive after it ends: wait one interval (and a margin) for them.
    await sleep(INTERVAL_MS + 5000);
    const m2 = await metrics(base, token);
    sampler.stop = true;
    await sampler.done;
    const arrivals = await target.ask('arrivals');
    const before = windowFigures(arrivals, ids, beforeFrom, beforeFrom + BEFORE_S * 1000, m0, m1);
    const during = windowFigures(arrivals, ids, run.started, run.ended, m1, m2);

    console.log(
      `\nImport from Uptime Kuma: ${f(bytes.length / 1048576, 1)} MiB kuma.db (2.x, ${KUMA_MONITORS} monitors, ${KUMA_MONITORS * BEATS} heartbeats, history ${HISTORY})`,
    );
    console.log(
      `while ${MONITORS} HTTP monitors check a loopback target every ${INTERVAL_S} s; test runners on the machine: ${otherTestRunners()}`,
    );
    console.log(
      `upload answered ${run.result.status} after ${f((run.ended - run.started) / 1000, 1)} s; progress poll slowest answer ${f(run.pollMax)} ms`,
    );
    const report = run.result.body.report;
    if (report) {
      console.log(
        `plan: ${JSON.stringify(report.counts ?? {})}, skipped ${report.skipped?.length ?? 0}  history: ${JSON.stringify(report.history ?? {})}`,
      );
    } else console.log(`answer: ${JSON.stringify(run.result.body).slice(0, 300)}`);
    // Before the first phase the server is receiving the body (`upload`).
    run.phases.unshift({ phase: 'upload', at: run.started });
    for (let i = 0; i < run.phases.length; i += 1) {
      const { phase, at } = run.phases[i];
      const next = run.phases[i + 1]?.at ?? run.ended;
      if (phase === 'done' || phase === 'failed') continue;
      // Checks whose slot fell in this phase (lateness only: a phase is not a whole number of intervals).
      const late = analyseArrivals(arrivals, ids, at, next, at, INTERVAL_MS);
      console.log(
        `  phase ${phase.padEnd(9)} ${f((next - at) / 1000, 1)} s   checks due in it ${late.onSlots}: lateness p50 ${f(late.p50)} ms, p99 ${f(late.p99)} ms, max ${f(late.max)} ms`,
      );
    }
    const after = analyseArrivals(arrivals, ids, run.ended, run.started + during.seconds * 1000, run.ended, INTERVAL_MS);
    console.log(
      `  after it (rest of the window, the imported monitors' first checks) checks due ${after.onSlots}: lateness p50 ${f(after.p50)} ms, p99 ${f(after.p99)} ms, max ${f(after.max)} ms`,
    );
    console.log('');
    printWindow('before import', before);
    printWindow('during import', during);
    console.log(
      `(during: slots from the upload's start over whole ${INTERVAL_S} s intervals; slot wait over the import and one interval after)`,
    );
    console.log(
      `event loop delay  before: p99 ${f(loopBefore.p99, 1)} ms, max ${f(loopBefore.max, 1)} ms   during: p99 ${f(sampler.loopP99Max, 1)} ms, max ${f(sampler.loopMax, 1)} ms (worst 2 s read)`,
    );
    console.log(`server RSS        idle ${f(idleRss)} MiB, peak before ${f(rssBefore)} MiB, peak during import ${f(run.rssPeak)} MiB`);
    console.log(
      `results dropped ${m2.vigil_check_results_dropped_total}, scheduling held ${f(m2.vigil_check_scheduling_held_ms_total - m1.vigil_check_scheduling_held_ms_total)} ms`,
    );
  } finally {
    await server?.stop();
    await target.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

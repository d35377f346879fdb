// `npm run bench:browser -- [--monitors N] [--interval S] [--timeout S] [--minutes M] [--warmup S]`
//
// N browser monitors (default 60, one step `expectText`, interval S default 60 s, timeout default 30 s or 80 % of S) against a
// loopback page served by this process, on the embedded database, with BROWSER_CHECK_CONCURRENCY at the server's
// default (2). After creating them (each is checked at once, so a burst queues for the browser) it waits S seconds
// plus the warm-up (default 60 s), then measures for M minutes (default 3) and prints:
// - checks/min sustained: browser checks stored in the window (the server's rows-written counter; no other monitor
//   exists) and the up ones among them (stored checks read back), against the demand N × 60 / S.
// - page loads/min: requests the page received in the window (one per check that got a browser).
// - check start → page asked p50/p99: each stored check's checked_at (taken before it waits for one of the browser
//   slots) to its monitor's next page request: the wait for a slot plus a new context and page. The whole check's
//   duration is not seen from outside (the server's request histogram is HTTP's only), so its mean is given by
//   Little's law: mean checks in flight (vigil_checks_in_flight, read every 5 s) ÷ checks per second.
// - lateness: page request − the monitor's slot (the server's spread), and the scheduler's slot wait (due → start).
// - CPU (100 % = one core) and memory: the server process alone, the Chromium processes under it (every process whose
//   name holds "chrom", their own CPU plus their reaped children's), the embedded PostgreSQL, and the machine.
// - down checks in the window and their errors (a check that waited its whole timeout for a browser says so).
// Prints figures; asserts nothing. Other test runners on the machine are counted as in bench:checker.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storedChecks } from './lib/checker-mix.mjs';
import { analyseArrivals, startServer } from './lib/checker-run.mjs';
import { createMonitors } from './lib/bench-monitors.mjs';
import {
  api,
  childCpuSeconds,
  cpuSeconds,
  f,
  histogramWindow,
  log,
  machineJiffies,
  metrics,
  option,
  otherTestRunners,
  percentile,
  processTree,
  rssMiB,
  sleep,
} from './lib/measure.mjs';

const MONITORS = Math.max(1, Math.floor(Number(option('monitors', 60))));
const INTERVAL_S = Math.max(20, Number(option('interval', 60)));
const TIMEOUT_S = Math.max(1, Number(option('timeout', Math.min(30, Math.floor(INTERVAL_S * 0.8)))));
const MINUTES = Math.max(1, Number(option('minutes', 3)));
const WARMUP_S = Math.max(0, Number(option('warmup', 60)));
const SAMPLE_MS = 5000;
const PAGE_TEXT = 'All systems ready';
const PAGE = `<!doctype html><html><head><title>Bench</title></head><body><h1>Bench page</h1><p>${PAGE_TEXT}</p></body></html>`;

/** The loopback page; every page request's monitor index and arrival time is kept (Chromium's favicon requests are only counted). */
async function startPage() {
  const arrivals = { index: [], at: [], other: 0 };
  const server = createServer((request, response) => {
    const match = /^\/p\/(\d+)$/.exec(request.url ?? '');
    if (match) {
      arrivals.index.push(Number(match[1]));
      arrivals.at.push(Date.now());
    } else arrivals.other += 1;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
}

const comm = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

/** CPU seconds and RSS of the server's Chromium processes and of its embedded PostgreSQL. */
function children(serverPid) {
  const out = { chromium: { cpu: 0, rss: 0, processes: 0 }, postgres: { cpu: 0, rss: 0, processes: 0 } };
  for (const pid of processTree(serverPid)) {
    if (pid === serverPid) continue;
    const name = comm(pid);
    const group = /chrom/i.test(name) ? out.chromium : name === 'postgres' ? out.postgres : null;
    if (!group) continue;
    group.cpu += (cpuSeconds(pid) ?? 0) + (childCpuSeconds(pid) ?? 0);
    group.rss += rssMiB(pid) ?? 0;
    group.processes += 1;
  }
  return out;
}

async function run() {
  const page = await startPage();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-browser-'));
  // As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  const logPath = join(tmpdir(), `vigil-bench-browser-${Date.now()}.log`);
  log(`bench:browser ${MONITORS} monitors every ${INTERVAL_S} s (timeout ${TIMEOUT_S} s), ${MINUTES} min window; server log ${logPath}`);
  let server = null;
  try {
    server = await startServer({ DATA_DIR: dataDir }, logPath);
    const { base } = server;
    const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
    const registered = await api(base, null, 'POST', '/api/auth/register', credentials);
    if (registered.status >= 300) throw new Error(`register answered ${registered.status}: ${registered.text}`);
    const login = await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password });
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
    const { token } = login.json();
    const bodies = Array.from({ length: MONITORS }, (_, index) => ({
      name: `bench browser ${index}`,
      type: 'browser',
      url: `http://127.0.0.1:${page.port}/p/${index}`,
      steps: [`expectText ${PAGE_TEXT}`],
      interval: INTERVAL_S,
      timeout: TIMEOUT_S,
      retries: 0,
    }));
    const created = await createMonitors(base, token, bodies);
    const createdAt = Date.now();
    log(`created ${created.ids.filter((id) => id !== undefined).length}, ${created.failures} refused; warm-up ${INTERVAL_S + WARMUP_S} s`);
    await sleep(INTERVAL_S * 1000 + WARMUP_S * 1000 - (Date.now() - createdAt));

    const m0 = await metrics(base, token);
    const t0 = Date.now();
    const c0 = { server: cpuSeconds(server.pid), ...children(server.pid), machine: machineJiffies() };
    const pages0 = page.arrivals.at.length;
    const inFlight = [];
    const samples = { server: [], chromium: [], chromiumProcesses: [], postgres: [] };
    let busy = 0;
    let reads = 0;
    const t1 = t0 + MINUTES * 60_000;
    while (Date.now() < t1 && !server.exited()) {
      await sleep(Math.min(SAMPLE_MS, t1 - Date.now()));
      const now = children(server.pid);
      samples.server.push(rssMiB(server.pid) ?? 0);
      samples.chromium.push(now.chromium.rss);
      samples.chromiumProcesses.push(now.chromium.processes);
      samples.postgres.push(now.postgres.rss);
      reads += 1;
      if (otherTestRunners() > 0) busy += 1;
      const m = await metrics(base, token).catch(() => null);
      if (m) inFlight.push(m.vigil_checks_in_flight);
    }
    const c1 = { server: cpuSeconds(server.pid), ...children(server.pid), machine: machineJiffies() };
    const tEnd = Date.now();
    const m1 = await metrics(base, token);
    if (server.exited()) throw new Error(`server exited during the run; see ${logPath}`);
    const seconds = (tEnd - t0) / 1000;
    const perMinute = (count) => (count / seconds) * 60;
    const percent = (before, after) => ((after - before) / seconds) * 100;
    const entries = created.ids.flatMap((id, index) => (id === undefined ? [] : [{ id, index }]));
    const stored = await storedChecks(base, token, entries);
    const inWindow = stored.at.filter((at) => at >= t0 && at < tEnd).length;
    const downs = stored.down.filter((d) => d.at >= t0 && d.at < tEnd);
    const started = startToPage(stored, page.arrivals, t0, tEnd);
    const lateness = analyseArrivals(page.arrivals, created.ids, t0, t1, createdAt, INTERVAL_S * 1000);
    const meanInFlight = inFlight.reduce((sum, n) => sum + n, 0) / Math.max(1, inFlight.length);
    const slotWait = histogramWindow(m0, m1, 'vigil_check_slot_wait_ms');
    const max = (list) => Math.max(0, ...list);
    const machine = ((c1.machine.busy - c0.machine.busy) / (c1.machine.total - c0.machine.total)) * 100;
    console.log(
      [
        `browser: ${entries.length} monitors every ${INTERVAL_S} s, timeout ${TIMEOUT_S} s, BROWSER_CHECK_CONCURRENCY default; window ${f(seconds)} s`,
        `  demand                   ${f((entries.length * 60) / INTERVAL_S, 1)} checks/min`,
        `  checks stored            ${f(perMinute(m1.vigil_check_rows_written_total - m0.vigil_check_rows_written_total), 1)}/min (rows written); ` +
          `read back ${f(perMinute(inWindow), 1)}/min, of which up ${f(perMinute(inWindow - downs.length), 1)}/min, down ${downs.length} in the window`,
        `  page loads               ${f(perMinute(page.arrivals.at.length - pages0), 1)}/min at the loopback page (${page.arrivals.other} other requests in the run, e.g. favicons)`,
        `  check start → page asked p50 ${f(started.p50)} ms, p99 ${f(started.p99)} ms, max ${f(started.max)} ms over ${started.count} checks ` +
          `(stored checked_at → the page's request: waiting for a browser slot, a new context and page)`,
        `  check duration (mean)    ${f((meanInFlight / Math.max(1e-9, inWindow / seconds)) * 1000)} ms by Little's law: ${f(meanInFlight, 2)} checks in flight on average ` +
          `(${inFlight.length} reads of vigil_checks_in_flight) ÷ ${f(inWindow / seconds, 2)} checks/s`,
        `  lateness at the page     p50 ${f(lateness.p50)} ms, p99 ${f(lateness.p99)} ms, max ${f(lateness.max)} ms (page request − slot, ${lateness.onSlots} slots); ` +
          `missed ${lateness.missed} (${lateness.monitorsMissing} monitors), extra ${lateness.extra}`,
        `  slot wait (scheduler)    p50 ${f(slotWait?.p50)} ms, p99 ${f(slotWait?.p99)} ms (vigil_check_slot_wait_ms: due → check started)`,
        `  CPU (100 % = one core)   server ${f(percent(c0.server, c1.server), 1)} %, Chromium ${f(percent(c0.chromium.cpu, c1.chromium.cpu), 1)} %, ` +
          `embedded PostgreSQL ${f(percent(c0.postgres.cpu, c1.postgres.cpu), 1)} %; machine ${f(machine, 1)} % of 2 cores`,
        `  memory (RSS, max)        server ${f(max(samples.server))} MiB, Chromium ${f(max(samples.chromium))} MiB summed over up to ` +
          `${max(samples.chromiumProcesses)} processes, embedded PostgreSQL ${f(max(samples.postgres))} MiB`,
        ...(downs.length ? [`  down errors              ${[...new Set(downs.map((d) => d.error))].slice(0, 3).join('; ')}`] : []),
        `  other test runners seen  ${busy}/${reads} samples`,
      ].join('\n'),
    );
  } finally {
    if (server) await server.stop();
    await page.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** For each stored check in [t0, t1): its start (checked_at) → the first page request of its monitor after it. */
function startToPage(stored, arrivals, t0, t1) {
  const byIndex = new Map();
  for (let i = 0; i < arrivals.at.length; i += 1) {
    if (!byIndex.has(arrivals.index[i])) byIndex.set(arrivals.index[i], []);
    byIndex.get(arrivals.index[i]).push(arrivals.at[i]);
  }
  const gaps = [];
  for (let i = 0; i < stored.at.length; i += 1) {
    const at = stored.at[i];
    if (at < t0 || at >= t1) continue;
    const next = (byIndex.get(stored.index[i]) ?? []).find((seen) => seen >= at);
    if (next !== undefined && next - at < TIMEOUT_S * 1000) gaps.push(next - at);
  }
  gaps.sort((a, b) => a - b);
  return { count: gaps.length, p50: percentile(gaps, 0.5), p99: percentile(gaps, 0.99), max: gaps.length ? gaps[gaps.length - 1] : NaN };
}

run().catch((error) => {
  console.log(`browser: run failed: ${error.message}`);
  process.exitCode = 1;
});

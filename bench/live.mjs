// `npm run bench:live -- --viewers N [--changes C] [--every MS] [--monitors M] [--procs P] [--mode postgres|embedded]
//                       [--no-browser] [--connect-concurrency K] [--postgres ADMIN_URL]`
//
// Live updates under load, against the built server (server/dist/main.js, its own process, on a fresh PostgreSQL
// database on 127.0.0.1:5432 dropped afterwards, or a fresh embedded data folder):
// 1. M monitors (default 8, `live-bench-m01`…, interval 60 s, retries 0) on a loopback target in its own process
//    (bench/lib/live-target.mjs) whose paths answer 200 until flipped to 500; all of them on the status page;
// 2. N viewers (default 100) in P separate processes (bench/lib/live-viewers.mjs, default 2), half of them status
//    page viewers (anonymous sockets in room `status`, receiving `status.item`) and half dashboard viewers (the
//    admin's JWT, rooms `monitors` and `agents`, receiving `monitor.status_changed`), each a socket of its own;
// 3. unless --no-browser, one headless Chromium with the dashboard (signed in) and the status page (anonymous) open
//    (bench/lib/live-dom.mjs);
// 4. C changes (default 80), one every MS ms (default 1000), round robin over the monitors (so each goes down, then
//    up, …): flip the monitor's target path (500 or 200), note `at` = Date.now(), call
//    `POST /api/monitors/:id/check` (retries 0: that one check changes the status);
// 5. then matches, for every change and every viewer, the first push for that monitor carrying the new status:
//    latency = push arrival (Date.now() in the viewer process) − `at` (Date.now() in this process just before the
//    check call). Same machine, same wall clock. Same for the DOM: first time the page shows the monitor's new status.
// Prints p50/p95/p99/max per viewer kind, deliveries/expected, the check call's own duration, change → DOM latency
// per page, server CPU % and RSS during the changes (/proc), PostgreSQL and viewer CPU, and a final `json` line.
// Asserts nothing and never fails on a target. Loopback only; children, browser, database and temporary folders are
// cleaned up at the end and on Ctrl-C (the server log is kept in the system's temporary folder for reading).
import { fork } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './lib/checker-run.mjs';
import {
  api,
  cpuSeconds,
  f,
  log,
  machineJiffies,
  option,
  otherTestRunners,
  percentile,
  postgresCpu,
  rssMiB,
  sleep,
} from './lib/measure.mjs';

/** Besides test runners, the other benchmarks also compete for the cores. */
const COMPETITORS = 'jest|vitest|playwright test|bench/(checker|agents)\\.mjs';

const require = createRequire(import.meta.url);
const TARGET = join(import.meta.dirname, 'lib/live-target.mjs');
const VIEWERS_SCRIPT = join(import.meta.dirname, 'lib/live-viewers.mjs');

const VIEWERS = Math.max(2, Math.floor(Number(option('viewers', 100))));
const CHANGES = Math.min(1000, Math.max(2, Math.floor(Number(option('changes', 80)))));
const EVERY_MS = Math.min(60_000, Math.max(100, Number(option('every', 1000))));
const MONITORS = Math.min(99, Math.max(2, Math.floor(Number(option('monitors', 8)))));
const PROCS = Math.min(8, Math.max(1, Math.floor(Number(option('procs', 2)))));
const MODE = option('mode', 'postgres');
const BROWSER = !process.argv.includes('--no-browser');
const CONNECT_CONCURRENCY = Math.max(1, Math.floor(Number(option('connect-concurrency', 50))));
const ADMIN_URL = option('postgres', process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const WARMUP_MS = 3000;
const GRACE_MS = 3000;
const SAMPLE_MS = 1000;
if (!['embedded', 'postgres'].includes(MODE)) {
  console.error('--mode must be postgres or embedded');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------------------
// /proc readings (as in bench/checker.mjs and bench/agents.mjs)

function summary(values) {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}
const fmt = (s) => `${f(s.p50)} / ${f(s.p95)} / ${f(s.p99)} / ${f(s.max)} ms`;

// ---------------------------------------------------------------------------------------------------------------
// Children and cleanup

const cleanups = [];
let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        log(`cleanup: ${error.message}`);
      }
    }
  })();
  return cleaning;
}
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}

function stopChild(child, signal = 'SIGTERM', graceMs = 10_000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** A forked helper answering `{ id, … }` requests over IPC; it says {type:'ready', …} first. */
async function startHelper(script, name) {
  const child = fork(script, [], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanups.push(() => stopChild(child, 'SIGTERM', 5000));
  const pending = new Map();
  let nextId = 1;
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 15_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  child.on('message', (message) => {
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  const ask = (body, timeoutMs = 60_000) =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error(`${name} is gone`));
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${name} did not answer ${body.type} within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, (message) => {
        clearTimeout(timer);
        if (message.error) reject(new Error(`${name}: ${message.error}`));
        else resolve(message);
      });
      child.send({ id, ...body });
    });
  return { pid: child.pid, ask, ready, child };
}

function serverLogFindings(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { lines: 0, problems: [] };
  }
  const lines = text.split('\n').filter(Boolean);
  return { lines: lines.length, problems: lines.filter((line) => /error|warn|fail|exception|unhandled/i.test(line)) };
}

// ---------------------------------------------------------------------------------------------------------------
// The run

async function run() {
  const stamp = `${MODE}-${VIEWERS}-${Date.now()}`;
  const tempDir = mkdtempSync(join(tmpdir(), 'vigil-bench-live-'));
  // As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter DATA_DIR's parent.
  chmodSync(tempDir, 0o755);
  cleanups.push(() => rmSync(tempDir, { recursive: true, force: true }));
  const logPath = join(tmpdir(), `vigil-bench-live-${stamp}.log`);
  const env = { DATA_DIR: join(tempDir, 'data') };
  mkdirSync(env.DATA_DIR);
  if (MODE === 'postgres') {
    const { Client } = require('pg');
    const adminClient = new Client({ connectionString: ADMIN_URL });
    await adminClient.connect();
    const database = `vigil_bench_live_${process.pid}_${Date.now()}`;
    await adminClient.query(`CREATE DATABASE ${database}`);
    cleanups.push(async () => {
      await adminClient
        .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
        .catch((error) => log(`could not drop ${database}: ${error.message}`));
      await adminClient.end();
    });
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }
  const statusViewers = Math.ceil(VIEWERS / 2);
  const dashboardViewers = VIEWERS - statusViewers;
  log(
    `bench:live ${VIEWERS} viewers (${statusViewers} status page, ${dashboardViewers} dashboard) in ${PROCS} processes, ${MONITORS} monitors, ${CHANGES} changes every ${EVERY_MS} ms, ${MODE}${BROWSER ? ', Chromium' : ''}`,
  );
  log(`  server log ${logPath}`);

  const target = await startHelper(TARGET, 'target');
  const server = await startServer(env, logPath);
  cleanups.push(server.stop);
  const { base } = server;
  const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
  const registered = await api(base, null, 'POST', '/api/auth/register', credentials);
  if (registered.status >= 300) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const login = await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  const { token, user } = login.json();

  // Monitors, all on the status page, all up.
  const monitors = [];
  for (let i = 0; i < MONITORS; i += 1) {
    const name = `live-bench-m${String(i + 1).padStart(2, '0')}`;
    const created = await api(base, token, 'POST', '/api/monitors', {
      name,
      url: `http://127.0.0.1:${target.ready.port}/m/${i}`,
      interval: 60,
      retries: 0,
    });
    if (created.status !== 201) throw new Error(`creating a monitor answered ${created.status}: ${created.text}`);
    monitors.push({ index: i, id: created.json().monitor.id, name, status: 'up' });
  }
  const config = await api(base, token, 'POST', '/api/status/config', {
    title: 'Live bench',
    monitors: monitors.map((m) => m.id),
    agents: [],
  });
  if (config.status !== 200) throw new Error(`status config answered ${config.status}: ${config.text}`);
  for (const m of monitors) {
    const checked = await api(base, token, 'POST', `/api/monitors/${m.id}/check`);
    if (checked.status !== 200) throw new Error(`check answered ${checked.status}: ${checked.text}`);
  }
  const listed = (await api(base, token, 'GET', '/api/status/data')).json().data.monitors;
  const notUp = listed.filter((m) => m.status !== 'up');
  if (notUp.length) log(`  not up before the window: ${notUp.map((m) => `${m.name} ${m.status}`).join(', ')}`);
  const idleRss = rssMiB(server.pid);

  // Viewers.
  const viewerProcs = [];
  for (let p = 0; p < PROCS; p += 1) viewerProcs.push(await startHelper(VIEWERS_SCRIPT, `viewers ${p + 1}`));
  const share = (total, p) => Math.floor(total / PROCS) + (p < total % PROCS ? 1 : 0);
  log(`connecting ${VIEWERS} viewers (${CONNECT_CONCURRENCY} handshakes in flight per process)`);
  const connectCpu0 = cpuSeconds(server.pid);
  const connectStarted = Date.now();
  const connects = await Promise.all(
    viewerProcs.map((v, p) =>
      v.ask(
        {
          type: 'start',
          url: base,
          token,
          status: share(statusViewers, p),
          dashboard: share(dashboardViewers, p),
          concurrency: CONNECT_CONCURRENCY,
        },
        120_000,
      ),
    ),
  );
  const connectSeconds = (Date.now() - connectStarted) / 1000;
  const connect = {
    connected: connects.reduce((a, c) => a + c.connected, 0),
    failed: connects.reduce((a, c) => a + c.failed, 0),
    errors: connects.flatMap((c) => c.errors),
    seconds: connectSeconds,
    serverCpuPercent: ((cpuSeconds(server.pid) - connectCpu0) / connectSeconds) * 100,
    serverRssAfter: rssMiB(server.pid),
  };
  log(
    `  ${connect.connected} connected and subscribed in ${f(connect.seconds, 1)} s, ${connect.failed} failed${connect.errors.length ? ` (${connect.errors.join('; ')})` : ''}`,
  );

  // Browser.
  let dom = null;
  if (BROWSER) {
    log('opening the dashboard and the status page in Chromium');
    dom = await import('./lib/live-dom.mjs').then((m) =>
      m
        .openPages({ base, token, user, monitors: monitors.map(({ id, name }) => ({ id, name })), log })
        .then((pages) => ({ ...pages, matchDom: m.matchDom })),
    );
    cleanups.push(() => dom.close());
    for (const note of dom.notes) log(`  note: ${note}`);
  }

  await sleep(WARMUP_MS);
  await Promise.all(viewerProcs.map((v) => v.ask({ type: 'reset-loop-delay' })));
  const before = await Promise.all(viewerProcs.map((v) => v.ask({ type: 'counts' })));

  // The changes.
  const t0 = Date.now();
  const cpu0 = {
    server: cpuSeconds(server.pid),
    postgres: postgresCpu(),
    target: cpuSeconds(target.pid),
    viewers: viewerProcs.map((v) => cpuSeconds(v.pid)),
    machine: machineJiffies(),
  };
  const rss = { server: [rssMiB(server.pid)], viewers: [viewerProcs.reduce((a, v) => a + (rssMiB(v.pid) ?? 0), 0)] };
  // Other test runners compete for the 2 cores: looked for at the start and every 5 s.
  let runnerChecks = 1;
  let runnerBusy = otherTestRunners(COMPETITORS) > 0 ? 1 : 0;
  let samples = 1;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sleep(SAMPLE_MS);
      rss.server.push(rssMiB(server.pid));
      rss.viewers.push(viewerProcs.reduce((a, v) => a + (rssMiB(v.pid) ?? 0), 0));
      samples += 1;
      if (samples % 5 === 0) {
        runnerChecks += 1;
        if (otherTestRunners(COMPETITORS) > 0) runnerBusy += 1;
      }
    }
  })();
  const changes = [];
  const checkFailures = [];
  log(`making ${CHANGES} changes, one every ${EVERY_MS} ms`);
  for (let i = 0; i < CHANGES && !interrupted && !server.exited(); i += 1) {
    const monitor = monitors[i % MONITORS];
    const status = monitor.status === 'up' ? 'down' : 'up';
    const from = Date.now();
    await target.ask({ type: 'set', index: monitor.index, status: status === 'down' ? 500 : 200 });
    const at = Date.now();
    const response = await api(base, token, 'POST', `/api/monitors/${monitor.id}/check`).catch((error) => ({
      status: 0,
      text: error.message,
      json: () => ({}),
    }));
    const answeredAt = Date.now();
    if (response.status !== 200) checkFailures.push(`${monitor.name}: ${response.status} ${response.text.slice(0, 120)}`);
    monitor.status = status;
    changes.push({ seq: i, monitorId: monitor.id, name: monitor.name, status, from, at, checkMs: answeredAt - at });
    if ((i + 1) % 20 === 0) log(`  ${i + 1}/${CHANGES} changes`);
    await sleep(Math.max(0, t0 + (i + 1) * EVERY_MS - Date.now()));
  }
  const tEnd = Date.now();
  const cpu1 = {
    server: cpuSeconds(server.pid),
    postgres: postgresCpu(),
    target: cpuSeconds(target.pid),
    viewers: viewerProcs.map((v) => cpuSeconds(v.pid)),
    machine: machineJiffies(),
  };
  sampling = false;
  await sampler;
  if (server.exited()) throw new Error(`server exited during the run; see ${logPath}`);
  await sleep(GRACE_MS);
  // Each change's window ends when the same monitor is flipped again.
  for (const [i, change] of changes.entries()) {
    const next = changes.slice(i + 1).find((c) => c.monitorId === change.monitorId);
    change.until = next ? next.from : Number.MAX_SAFE_INTEGER;
  }
  const analysed = await Promise.all(viewerProcs.map((v) => v.ask({ type: 'analyse', changes }, 120_000)));
  const domRecords = dom ? await dom.collect() : null;
  const targetStats = await target.ask({ type: 'stats' });

  const seconds = (tEnd - t0) / 1000;
  const kinds = {};
  for (const kind of ['status', 'dashboard']) {
    const latencies = analysed.flatMap((a) => a[kind].latencies);
    const sum = (key) => analysed.reduce((a, x) => a + x[kind][key], 0);
    // Per change: the slowest viewer of the kind, i.e. when every viewer of that kind had it.
    const lastViewer = changes.map((_, i) => Math.max(...analysed.map((a) => a.perChange[i][kind].max)));
    kinds[kind] = {
      sockets: sum('sockets'),
      latencyMs: summary(latencies),
      expected: sum('expected'),
      delivered: sum('delivered'),
      missed: sum('missed'),
      raced: sum('raced'),
      lastViewerPerChangeMs: summary(lastViewer),
    };
  }
  const all = summary(analysed.flatMap((a) => [...a.status.latencies, ...a.dashboard.latencies]));
  const viewerCounters = analysed.reduce((acc, a) => {
    for (const [k, v] of Object.entries(a.counters)) acc[k] = (acc[k] ?? 0) + v - (before[analysed.indexOf(a)].counters[k] ?? 0);
    return acc;
  }, {});
  const domResult = {};
  if (domRecords) {
    for (const [page, { records, info, pageErrors }] of Object.entries(domRecords)) {
      const matched = dom.matchDom(records, changes);
      domResult[page] = {
        latencyMs: summary(matched.overall),
        nextFrameMs: summary(matched.frames),
        missed: matched.missed,
        raced: matched.raced,
        byKind: Object.fromEntries(Object.entries(matched.byKind).map(([kind, values]) => [kind, summary(values)])),
        fallback: Boolean(info?.fallback),
        scans: info?.scans,
        pageErrors,
      };
    }
  }
  const checkMs = summary(changes.map((c) => c.checkMs));
  const result = {
    mode: MODE,
    viewers: VIEWERS,
    processes: PROCS,
    monitors: MONITORS,
    changes: changes.length,
    everyMs: EVERY_MS,
    windowSeconds: seconds,
    connect,
    viewerKinds: kinds,
    allViewersMs: all,
    checkCallMs: checkMs,
    checkFailures: checkFailures.slice(0, 5),
    checkFailureCount: checkFailures.length,
    dom: domRecords ? domResult : null,
    domNotes: dom?.notes ?? [],
    cpuPercent: {
      server: ((cpu1.server - cpu0.server) / seconds) * 100,
      postgres: MODE === 'postgres' ? ((cpu1.postgres - cpu0.postgres) / seconds) * 100 : null,
      target: ((cpu1.target - cpu0.target) / seconds) * 100,
      viewers: cpu1.viewers.map((c, i) => ((c - cpu0.viewers[i]) / seconds) * 100),
      machine: ((cpu1.machine.busy - cpu0.machine.busy) / (cpu1.machine.total - cpu0.machine.total)) * 100,
    },
    otherTestRunnersSeen: `${runnerBusy}/${runnerChecks} looks`,
    rssMiB: {
      serverIdle: idleRss,
      serverAfterConnect: connect.serverRssAfter,
      serverWindowStart: rss.server[0],
      serverWindowEnd: rss.server[rss.server.length - 1],
      serverWindowMax: Math.max(...rss.server.filter(Number.isFinite)),
      viewersWindowMax: Math.max(...rss.viewers),
    },
    viewerProcesses: {
      connectedAtEnd: analysed.map((a) => a.connected),
      loopDelayP99Ms: Math.max(...analysed.map((a) => a.loopDelayP99Ms)),
      loopDelayMaxMs: Math.max(...analysed.map((a) => a.loopDelayMaxMs)),
      countersInWindow: viewerCounters,
    },
    target: { requests: targetStats.requests, byStatus: targetStats.byStatus, connections: targetStats.connections },
    serverLog: logPath,
  };
  await Promise.all(viewerProcs.map((v) => v.ask({ type: 'stop' }, 10_000).catch(() => {})));
  return result;
}

function print(r) {
  const findings = serverLogFindings(r.serverLog);
  const c = r.cpuPercent;
  const k = r.viewerKinds;
  const lines = [
    `${r.mode}: ${r.viewers} viewers in ${r.processes} processes, ${r.monitors} monitors, ${r.changes} changes every ${r.everyMs} ms (window ${f(r.windowSeconds)} s)`,
    `  connect                  ${r.connect.connected} connected + subscribed in ${f(r.connect.seconds, 1)} s, ${r.connect.failed} failed; server CPU meanwhile ${f(r.connect.serverCpuPercent)} %`,
  ];
  for (const [kind, label] of [
    ['status', 'status page viewers'],
    ['dashboard', 'dashboard viewers'],
  ]) {
    const x = k[kind];
    lines.push(
      `  ${label.padEnd(25)}${x.sockets} sockets: change → push p50 / p95 / p99 / max ${fmt(x.latencyMs)}; delivered ${x.delivered}/${x.expected} (missed ${x.missed}, raced ${x.raced}); ` +
        `last viewer per change p50 ${f(x.lastViewerPerChangeMs.p50)} ms, p99 ${f(x.lastViewerPerChangeMs.p99)} ms, max ${f(x.lastViewerPerChangeMs.max)} ms`,
    );
  }
  lines.push(`  all viewers              p50 / p95 / p99 / max ${fmt(r.allViewersMs)} (${r.allViewersMs.count} deliveries)`);
  lines.push(
    `  check call               POST /api/monitors/:id/check answered in p50 / p95 / p99 / max ${fmt(r.checkCallMs)}; ${r.checkFailureCount} failed${r.checkFailures.length ? ` (${r.checkFailures.join('; ')})` : ''}`,
  );
  if (r.dom) {
    for (const [page, d] of Object.entries(r.dom)) {
      lines.push(
        `  DOM, ${page.padEnd(19)}change → DOM p50 / p95 / p99 / max ${fmt(d.latencyMs)} (${d.latencyMs.count} changes, missed ${d.missed}, raced ${d.raced})` +
          `; next frame ${fmt(d.nextFrameMs)}${d.fallback ? '; FALLBACK: matched by name, no test ids' : ''}`,
      );
      for (const [kind, s] of Object.entries(d.byKind))
        lines.push(`    ${kind.padEnd(26)}p50 ${f(s.p50)} ms, p99 ${f(s.p99)} ms, max ${f(s.max)} ms (${s.count} changes)`);
      if (d.pageErrors?.length) lines.push(`    page errors: ${d.pageErrors.join(' | ').slice(0, 300)}`);
    }
  } else lines.push('  DOM                      skipped (--no-browser)');
  for (const note of r.domNotes) lines.push(`    note: ${note}`);
  lines.push(
    `  CPU (100 % = one core)   server ${f(c.server, 1)} %` +
      (c.postgres === null ? '' : `, PostgreSQL ${f(c.postgres, 1)} %`) +
      `, viewers ${c.viewers.map((v) => `${f(v, 1)} %`).join(' + ')}, target ${f(c.target, 1)} %; whole machine ${f(c.machine, 1)} % of 2 cores (other test runners in ${r.otherTestRunnersSeen})`,
    `  server RSS               ${f(r.rssMiB.serverIdle)} MiB before viewers, ${f(r.rssMiB.serverAfterConnect)} with them connected, window ${f(r.rssMiB.serverWindowStart)} → ${f(r.rssMiB.serverWindowEnd)} MiB (max ${f(r.rssMiB.serverWindowMax)})`,
    `  viewer processes         RSS ${f(r.rssMiB.viewersWindowMax)} MiB (all), event-loop delay p99 ${f(r.viewerProcesses.loopDelayP99Ms, 1)} ms, max ${f(r.viewerProcesses.loopDelayMaxMs)} ms; ` +
      `connected at the end ${r.viewerProcesses.connectedAtEnd.map((x) => `${x.status}+${x.dashboard}`).join(', ')}; in the window: ${Object.entries(
        r.viewerProcesses.countersInWindow,
      )
        .map(([name, v]) => `${name} ${v}`)
        .join(', ')}`,
    `  target                   ${r.target.requests} requests (${Object.entries(r.target.byStatus)
      .map(([s, n]) => `${n}× ${s}`)
      .join(', ')}) on ${r.target.connections} connections`,
    `  server log               ${r.serverLog}: ${findings.lines} lines, ${findings.problems.length} with error/warn/fail`,
    ...findings.problems.slice(0, 5).map((line) => `    ${line.slice(0, 240)}`),
  );
  console.log(lines.join('\n'));
  console.log(`json ${JSON.stringify(r)}`);
}

try {
  print(await run());
} catch (error) {
  console.log(`${MODE}: run failed: ${error.stack ?? error.message}`);
} finally {
  await cleanup();
}
process.exit(0);

// `npm run bench:agents -- --agents N --interval S [--minutes M] [--mode postgres|embedded] [--agent-minutes A]
//  [--probes C --probe-interval P]`
//
// A simulated agent fleet against the built server (server/dist/main.js, or the folder under server/ that
// BENCH_SERVER_DIST names; its own process, on a fresh PostgreSQL database on 127.0.0.1:5432 dropped afterwards, or
// a fresh embedded data folder):
// 1. enrols N agents over HTTP (`POST /api/agents/enroll`, a registration token of its own each, since a token
//    enrols one host; 50 agents in flight, the latency is the enrolment's alone);
// 2. connects them from separate fleet processes (bench/lib/agent-fleet.mjs, `--workers`, default 2), each agent a
//    real socket.io-client connection of its own on `/agent` that says hello, then reports once per interval, the
//    N agents spread evenly over it (N ÷ S reports/s);
// 3. a browser subscriber in another process (bench/lib/agent-subscriber.mjs, the admin's JWT, room `agents`)
//    measures report → push latency: push arrival (epoch ms) − the report's `timestamp`, which the fleet sets to
//    the moment it emits the report and the server pushes back as `point.time` (same machine, same clock);
// 4. after a warm-up (default two intervals: every agent reported, the connecting → active transitions are over),
//    measures for M minutes: reports/s acknowledged, pushes/s received, push latency p50/p95/p99/max, ack latency,
//    the server's counters from /api/metrics, server CPU % and RSS (/proc), PostgreSQL, fleet and subscriber CPU,
//    database growth;
// 5. stops the fleet and, when agent/dist/vigil-agent.mjs exists, runs the real agent against the same server for
//    A minutes (default 5, 0 skips) with a fresh registration token, sampling its RSS and CPU from /proc every 5 s,
//    and checks through the API that it is active with figures.
// With --probes C (default 0, off) the fleet also runs checks (issue 32; bench/lib/probe-bench.mjs and
// probe-schedule.mjs): after enrolment C TCP monitors per agent are created through the API (--enroll-concurrency
// requests in flight), each checked from its agent only, at --probe-interval P seconds (default 60); the agents
// speak protocol 2, keep the checks the server assigns them, and send each result as it falls due, spread evenly
// over P, one result per `probe.results` message; the subscriber also joins room `monitors` and measures each
// `monitor.location` push: arrival − the result's `checked_at` (the moment the fleet emitted it) = ingest → stored
// → pushed. The window's figures then cover reports and results together. The requirement's case: --agents 1000
// --probes 10 --probe-interval 60 (10,000 results/min).
// Prints figures and a final `json` line; asserts nothing and never fails on a target. Loopback only; children,
// database and temporary folders are cleaned up at the end and on Ctrl-C (the server and real-agent logs are kept in
// the system's temporary folder for reading). Other options: --workers (fleet processes, 2), --warmup S,
// --enroll-concurrency 50, --connect-concurrency 50 (per fleet process), --postgres ADMIN_URL,
// --server-node-args "--trace-gc" (node flags for the server), --cpu-prof DIR (server CPU profile, written at exit),
// --alerts (global agent notifications on: a CPU alert at 50 % to a loopback webhook answering after --sink-delay-ms,
// default 3000, with --sink-status, default 200; compare its report figures with a run without it).
// Needs about N + 1,000 open files in the server: the soft limit is raised up to the hard one when short.
import { spawn } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { routeAlertsToSink, startAlertSink } from './lib/alert-sink.mjs';
import { createProbeMonitors, probeFigures, probeLines, storedLocationChecks } from './lib/probe-bench.mjs';
import {
  api,
  childCpuSeconds,
  cpuSeconds,
  f,
  freePort,
  log,
  machineJiffies,
  metrics,
  openFiles,
  option,
  otherTestRunners,
  percentile,
  postgresCpu,
  rssMiB,
  sleep,
} from './lib/measure.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..');
const MAIN = join(ROOT, 'server', process.env.BENCH_SERVER_DIST ?? 'dist', 'main.js');
const FLEET = join(import.meta.dirname, 'lib/agent-fleet.mjs');
const SUBSCRIBER = join(import.meta.dirname, 'lib/agent-subscriber.mjs');
const AGENT_BUNDLE = join(ROOT, 'agent/dist/vigil-agent.mjs');

const AGENTS = Math.max(1, Math.floor(Number(option('agents', 1000))));
const INTERVAL_S = Math.min(3600, Math.max(5, Math.floor(Number(option('interval', 10)))));
const MINUTES = Math.max(0.25, Number(option('minutes', 2)));
const MODE = option('mode', 'postgres');
const WORKERS = Math.max(1, Math.min(16, Math.floor(Number(option('workers', 2)))));
const PROBES = Math.max(0, Math.floor(Number(option('probes', 0))));
const PROBE_INTERVAL_S = Math.min(3600, Math.max(10, Math.floor(Number(option('probe-interval', 60)))));
// With probes, a whole probe interval too: every check has sent its first result.
const WARMUP_S = Math.max(0, Number(option('warmup', Math.max(15, 2 * INTERVAL_S, PROBES ? PROBE_INTERVAL_S : 0))));
const AGENT_MINUTES = Math.max(0, Number(option('agent-minutes', 5)));
const ENROLL_CONCURRENCY = Math.max(1, Math.floor(Number(option('enroll-concurrency', 50))));
const CONNECT_CONCURRENCY = Math.max(1, Math.floor(Number(option('connect-concurrency', 50))));
const CPU_PROF_DIR = option('cpu-prof', null);
// Extra node flags for the server only, space-separated (e.g. "--trace-gc" to see collector pauses in its log).
const SERVER_NODE_ARGS = (option('server-node-args', '') ?? '').split(' ').filter(Boolean);
const ADMIN_URL = option('postgres', process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const ALERTS = process.argv.includes('--alerts');
const SINK_DELAY_MS = Math.max(0, Number(option('sink-delay-ms', 3000)));
const SINK_STATUS = Math.floor(Number(option('sink-status', 200)));
const SAMPLE_MS = 5000;
const PROGRESS_EVERY_MS = 30_000;
if (!['embedded', 'postgres'].includes(MODE)) {
  console.error('--mode must be postgres or embedded');
  process.exit(2);
}

const mib = (bytes) => bytes / 2 ** 20;

/** Soft and hard limits on open files of this process (children inherit them). */
function fileLimits() {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const [soft, hard] = line.slice('Max open files'.length).trim().split(/\s+/);
    return { soft: soft === 'unlimited' ? Infinity : Number(soft), hard: hard === 'unlimited' ? Infinity : Number(hard) };
  } catch {
    return { soft: 1024, hard: 1024 };
  }
}

function summary(values) {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}

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

/**
 * Starts `node <args>`; when the open-files limit it needs is above the inherited soft limit (and within the hard
 * one), through `sh -c 'ulimit -n …; exec node …'` so the pid stays the node process.
 */
function spawnNode(args, { needFiles, env, stdio }) {
  const { soft, hard } = fileLimits();
  if (needFiles > soft && needFiles <= hard) {
    return spawn('/bin/sh', ['-c', `ulimit -n ${needFiles} && exec "$0" "$@"`, process.execPath, ...args], { env, stdio });
  }
  return spawn(process.execPath, args, { env, stdio });
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

/** A forked helper (fleet or subscriber) answering `{ id, … }` requests over IPC. */
async function startHelper(script, needFiles, name) {
  const child = spawnNode([script], { needFiles, env: { PATH: process.env.PATH }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanups.push(() => stopChild(child, 'SIGTERM', 5000));
  const pending = new Map();
  let nextId = 1;
  const onProgress = [];
  child.on('message', (message) => {
    if (message.type === 'progress') for (const listener of onProgress) listener(message);
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 15_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
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
  return { pid: child.pid, ask, onProgress, child };
}

async function startServer(env, logPath, needFiles) {
  const port = await freePort();
  const out = createWriteStream(logPath);
  const args = [...SERVER_NODE_ARGS, ...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []), MAIN];
  const child = spawnNode(args, {
    needFiles,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const stop = () => stopChild(child, 'SIGTERM', 30_000);
  cleanups.push(stop);
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 1200 && child.exitCode === null; attempt += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) {
        return { pid: child.pid, base, stop, exited: () => child.exitCode !== null || child.signalCode !== null };
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server did not become healthy; see ${logPath}`);
}

function benchHello(index) {
  return {
    hostname: `bench-agent-${index}`,
    ip_addresses: [`10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`],
    os: 'Debian GNU/Linux 12',
    platform: 'linux',
    kernel: '6.1.0-18-amd64',
    arch: 'x64',
    cpu_model: 'Bench CPU',
    cpu_cores: 4,
    agent_version: '0.1.0-bench',
    interval: INTERVAL_S,
  };
}

async function enrollAll(base, adminToken) {
  const credentials = new Array(AGENTS);
  const agentIds = new Array(AGENTS);
  const failures = [];
  const latencies = [];
  let next = 0;
  let done = 0;
  const started = Date.now();
  let lastProgress = started;
  async function worker() {
    while (next < AGENTS) {
      const index = next;
      next += 1;
      try {
        const generated = await api(base, adminToken, 'POST', '/api/agents/token/generate');
        if (generated.status !== 200) throw new Error(`token/generate answered ${generated.status}`);
        const { token } = generated.json();
        const t = performance.now();
        const response = await api(base, null, 'POST', '/api/agents/enroll', { token, hello: benchHello(index) });
        latencies.push(performance.now() - t);
        if (response.status === 200) ({ credential: credentials[index], agent_id: agentIds[index] } = response.json());
        else failures.push(`${index}: ${response.status} ${response.text.slice(0, 200)}`);
      } catch (error) {
        failures.push(`${index}: ${error.message}`);
      }
      done += 1;
      if (Date.now() - lastProgress > 10_000) {
        lastProgress = Date.now();
        log(`  enrolled ${done}/${AGENTS}`);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(ENROLL_CONCURRENCY, AGENTS) }, worker));
  return { credentials, agentIds, failures, seconds: (Date.now() - started) / 1000, latency: summary(latencies) };
}

function serverLogFindings(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { lines: 0, problems: [] };
  }
  const lines = text.split('\n').filter(Boolean);
  // --trace-gc lines ("… allocation failure …") are not problems.
  const gc = /^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: /;
  return { lines: lines.length, problems: lines.filter((line) => !gc.test(line) && /error|warn|fail|exception|unhandled/i.test(line)) };
}

// ---------------------------------------------------------------------------------------------------------------
// The real agent

async function realAgent(server, adminToken, tempDir, minutes) {
  if (!existsSync(AGENT_BUNDLE))
    return { skipped: `${AGENT_BUNDLE.slice(ROOT.length + 1)} does not exist (build it with npm run build -w agent)` };
  const generated = await api(server.base, adminToken, 'POST', '/api/agents/token/generate');
  if (generated.status !== 200) return { skipped: `token/generate answered ${generated.status}` };
  const { token, token_id: tokenId } = generated.json();
  const configPath = join(tempDir, 'config.json');
  // Kept (outside the repository) for reading after the run, like the server log.
  const agentLog = join(tmpdir(), `vigil-bench-agents-real-agent-${Date.now()}.log`);
  const out = createWriteStream(agentLog);
  const child = spawn(
    process.execPath,
    [AGENT_BUNDLE, '--server', server.base, '--token', token, '--interval', '10', '--config', configPath],
    {
      env: { PATH: process.env.PATH, HOME: tempDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  cleanups.push(() => stopChild(child, 'SIGTERM', 5000));
  const started = Date.now();
  const end = started + minutes * 60_000;
  const samples = [];
  const cpu0 = { own: cpuSeconds(child.pid) ?? 0, children: childCpuSeconds(child.pid) ?? 0 };
  log(`real agent: pid ${child.pid}, ${minutes} min, log ${agentLog}`);
  let lastLog = started;
  while (Date.now() < end && child.exitCode === null && child.signalCode === null) {
    await sleep(Math.min(SAMPLE_MS, end - Date.now()));
    const rss = rssMiB(child.pid);
    const own = cpuSeconds(child.pid);
    if (rss === null || own === null) break;
    samples.push({ at: Date.now(), rss, own, children: childCpuSeconds(child.pid) });
    if (Date.now() - lastLog >= 60_000) {
      lastLog = Date.now();
      log(
        `  real agent +${((Date.now() - started) / 1000).toFixed(0)} s: RSS ${f(rss, 1)} MiB, CPU ${f(((own - cpu0.own) / ((Date.now() - started) / 1000)) * 100, 2)} %`,
      );
    }
  }
  const exited = child.exitCode !== null || child.signalCode !== null ? { code: child.exitCode, signal: child.signalCode } : null;
  const last = samples[samples.length - 1];
  const seconds = last ? (last.at - started) / 1000 : 0;
  // The agent as the server sees it: found by the registration token it used.
  const listed = await api(server.base, adminToken, 'GET', `/api/agents?page=1&pageSize=100&search=${encodeURIComponent(hostname())}`);
  const agent = listed.status === 200 ? listed.json().agents.find((a) => a.registration_id === tokenId) : undefined;
  let points = null;
  if (agent) {
    const chart = await api(server.base, adminToken, 'GET', `/api/agents/${agent.id}/metrics?range=1h`);
    if (chart.status === 200) points = chart.json().metrics.points.length;
  }
  await stopChild(child, 'SIGTERM', 5000);
  let configWritten = false;
  try {
    configWritten = Boolean(JSON.parse(readFileSync(configPath, 'utf8')));
  } catch {
    // not written
  }
  const rss = samples.map((s) => s.rss);
  return {
    minutes,
    seconds,
    samples: samples.length,
    exitedEarly: exited,
    rssMiB: {
      max: rss.length ? Math.max(...rss) : NaN,
      avg: rss.length ? rss.reduce((a, b) => a + b, 0) / rss.length : NaN,
      first: rss[0],
      last: rss[rss.length - 1],
    },
    cpuPercent: {
      own: last && seconds ? ((last.own - cpu0.own) / seconds) * 100 : NaN,
      withChildren: last && seconds ? ((last.own - cpu0.own + (last.children ?? 0) - cpu0.children) / seconds) * 100 : NaN,
    },
    configWritten,
    server: agent
      ? {
          id: agent.id,
          status: agent.status,
          hostname: agent.hostname,
          version: agent.version,
          cpu_usage: agent.cpu_usage,
          memory_used: agent.memory_used,
          memory_total: agent.memory_total,
          disk_total: agent.disk_total,
          network_rx: agent.network_rx,
          interval: agent.interval,
          updated_at: agent.updated_at,
          chartPoints1h: points,
        }
      : null,
    log: agentLog,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The run

async function run() {
  const stamp = `${MODE}-${AGENTS}-${Date.now()}`;
  const tempDir = mkdtempSync(join(tmpdir(), 'vigil-bench-agents-'));
  // As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter DATA_DIR's parent.
  chmodSync(tempDir, 0o755);
  cleanups.push(() => rmSync(tempDir, { recursive: true, force: true }));
  // The server log is kept (outside the repository) for reading after the run.
  const logPath = join(tmpdir(), `vigil-bench-agents-${stamp}.log`);
  const env = { DATA_DIR: join(tempDir, 'data') };
  mkdirSync(env.DATA_DIR);
  let adminClient = null;
  let benchClient = null;
  let database = null;
  if (MODE === 'postgres') {
    const { Client } = require('pg');
    adminClient = new Client({ connectionString: ADMIN_URL });
    await adminClient.connect();
    database = `vigil_bench_agents_${process.pid}_${Date.now()}`;
    await adminClient.query(`CREATE DATABASE ${database}`);
    cleanups.push(async () => {
      await benchClient?.end().catch(() => {});
      await adminClient
        .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
        .catch((error) => log(`could not drop ${database}: ${error.message}`));
      await adminClient.end();
    });
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }

  const limits = fileLimits();
  const serverFiles = AGENTS + 1024;
  const workerFiles = Math.ceil(AGENTS / WORKERS) + 512;
  const fdNote =
    limits.soft >= serverFiles
      ? `open files limit ${limits.soft} (server needs ~${serverFiles})`
      : limits.hard >= serverFiles
        ? `open files soft limit ${limits.soft} < ~${serverFiles}: raised to ${serverFiles} for the server and fleet (hard limit ${limits.hard})`
        : `open files hard limit ${limits.hard} < ~${serverFiles}: the server will refuse connections past it; raise it (ulimit -n) and run again`;
  log(
    `bench:agents ${AGENTS} agents at ${INTERVAL_S} s (${f(AGENTS / INTERVAL_S, 1)} reports/s), ${WORKERS} fleet processes, ${MINUTES} min window after ${WARMUP_S} s warm-up, ${MODE}`,
  );
  if (PROBES)
    log(`  probes: ${PROBES} checks per agent at ${PROBE_INTERVAL_S} s (${f((AGENTS * PROBES) / PROBE_INTERVAL_S, 1)} results/s)`);
  log(`  ${fdNote}; server log ${logPath}`);

  const server = await startServer(env, logPath, serverFiles);
  const { base } = server;
  const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
  const registered = await api(base, null, 'POST', '/api/auth/register', credentials);
  if (registered.status >= 300) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const login = await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  const { token: adminToken } = login.json();
  const idle = { rss: rssMiB(server.pid), metrics: await metrics(base, adminToken) };
  let sink = null;
  if (ALERTS) {
    sink = await startAlertSink({ delayMs: SINK_DELAY_MS, status: SINK_STATUS });
    cleanups.push(() => sink.close());
    await routeAlertsToSink(base, adminToken, sink, { kind: 'agent' });
    log(`alerts on: CPU above 50 % for 3 reports → webhook at ${sink.url} answering ${SINK_STATUS} after ${SINK_DELAY_MS} ms`);
  }

  // Enrolment.
  log(`enrolling ${AGENTS} agents (${ENROLL_CONCURRENCY} requests in flight)`);
  const enrollCpu0 = { server: cpuSeconds(server.pid), postgres: postgresCpu() };
  const enrolled = await enrollAll(base, adminToken);
  const enrollCpu = {
    server: ((cpuSeconds(server.pid) - enrollCpu0.server) / enrolled.seconds) * 100,
    postgres: MODE === 'postgres' ? ((postgresCpu() - enrollCpu0.postgres) / enrolled.seconds) * 100 : null,
  };
  const enrolledCount = enrolled.credentials.filter(Boolean).length;
  log(
    `  enrolled ${enrolledCount} in ${f(enrolled.seconds, 1)} s (${f(enrolledCount / enrolled.seconds)}/s), ${enrolled.failures.length} failed; request p50 ${f(enrolled.latency.p50)} ms, p99 ${f(enrolled.latency.p99)} ms`,
  );
  for (const failure of enrolled.failures.slice(0, 5)) log(`  failed: ${failure}`);
  const afterEnroll = { rss: rssMiB(server.pid), metrics: await metrics(base, adminToken) };
  const probeMonitors = PROBES
    ? await createProbeMonitors(base, adminToken, enrolled.agentIds, {
        perAgent: PROBES,
        intervalS: PROBE_INTERVAL_S,
        concurrency: ENROLL_CONCURRENCY,
      })
    : null;

  // Subscriber, then the fleet.
  const subscriber = await startHelper(SUBSCRIBER, 256, 'subscriber');
  await subscriber.ask({ type: 'start', url: base, token: adminToken, probes: PROBES > 0 }, 40_000);
  const fleet = [];
  for (let w = 0; w < WORKERS; w += 1) fleet.push(await startHelper(FLEET, workerFiles, `fleet ${w + 1}`));
  log(`connecting ${enrolledCount} agents from ${WORKERS} fleet processes (${CONNECT_CONCURRENCY} handshakes in flight each)`);
  const connectCpu0 = { server: cpuSeconds(server.pid), postgres: postgresCpu() };
  const connectStarted = Date.now();
  const progress = new Map();
  for (const [w, worker] of fleet.entries()) {
    worker.onProgress.push((message) => {
      progress.set(w, message.connected);
      log(`  connected ${[...progress.values()].reduce((a, b) => a + b, 0)}/${enrolledCount}`);
    });
  }
  const connectResults = await Promise.all(
    fleet.map((worker, w) => {
      const slice = [];
      for (let index = w; index < AGENTS; index += WORKERS)
        if (enrolled.credentials[index]) slice.push({ index, credential: enrolled.credentials[index] });
      return worker.ask(
        { type: 'connect', url: base, agents: slice, concurrency: CONNECT_CONCURRENCY, intervalS: INTERVAL_S, protocol: PROBES ? 2 : 1 },
        30 * 60_000,
      );
    }),
  );
  const connectSeconds = (Date.now() - connectStarted) / 1000;
  const connectCpu = {
    server: ((cpuSeconds(server.pid) - connectCpu0.server) / connectSeconds) * 100,
    postgres: MODE === 'postgres' ? ((postgresCpu() - connectCpu0.postgres) / connectSeconds) * 100 : null,
  };
  const connectedByFleet = connectResults.reduce((a, r) => a + r.connected, 0);
  const connectFailed = connectResults.reduce((a, r) => a + r.failed, 0);
  const afterConnect = { rss: rssMiB(server.pid), metrics: await metrics(base, adminToken), files: openFiles(server.pid) };
  log(
    `  connected and said hello: ${connectedByFleet} in ${f(connectSeconds, 1)} s (${f(connectedByFleet / connectSeconds)}/s), ${connectFailed} failed; ` +
      `server gauge vigil_agent_sockets ${afterConnect.metrics.vigil_agent_sockets}, server RSS ${f(afterConnect.rss)} MiB, ${afterConnect.files} open files`,
  );
  const checksHeld = connectResults.reduce((a, r) => a + r.checksHeld, 0);
  if (PROBES) log(`  checks assigned to the fleet: ${checksHeld} of ${probeMonitors.created} monitors`);

  // Reporting starts on a common epoch so the fleet processes share one spread.
  const startAt = Date.now() + 2000;
  const probes = PROBES ? { startAt, intervalS: PROBE_INTERVAL_S, total: AGENTS, perAgent: PROBES } : null;
  await Promise.all(fleet.map((worker) => worker.ask({ type: 'start', startAt, intervalS: INTERVAL_S, total: AGENTS, probes })));
  log(`reporting from ${new Date(startAt).toISOString().slice(11, 19)}; warm-up ${WARMUP_S} s`);
  await sleep(Math.max(0, startAt + WARMUP_S * 1000 - Date.now()));

  // Window.
  await Promise.all([...fleet, subscriber].map((helper) => helper.ask({ type: 'reset-loop-delay' })));
  const m0 = await metrics(base, adminToken);
  const t0 = Date.now();
  const cpu0 = {
    server: cpuSeconds(server.pid),
    postgres: postgresCpu(),
    fleet: fleet.map((w) => cpuSeconds(w.pid)),
    subscriber: cpuSeconds(subscriber.pid),
    machine: machineJiffies(),
  };
  const t1 = t0 + MINUTES * 60_000;
  const rss = { server: [rssMiB(server.pid)], fleet: [fleet.reduce((a, w) => a + rssMiB(w.pid), 0)], subscriber: [rssMiB(subscriber.pid)] };
  const socketsSeen = [m0.vigil_agent_sockets];
  let busySamples = otherTestRunners() > 0 ? 1 : 0;
  let samples = 1;
  let nextProgress = t0 + PROGRESS_EVERY_MS;
  let lastAccepted = { at: t0, value: m0.vigil_agent_reports_accepted_total, results: m0.vigil_probe_results_total ?? 0 };
  log(`measuring ${MINUTES} min`);
  while (Date.now() < t1 && !server.exited()) {
    await sleep(Math.min(SAMPLE_MS, t1 - Date.now()));
    rss.server.push(rssMiB(server.pid));
    rss.fleet.push(fleet.reduce((a, w) => a + (rssMiB(w.pid) ?? 0), 0));
    rss.subscriber.push(rssMiB(subscriber.pid));
    samples += 1;
    if (otherTestRunners() > 0) busySamples += 1;
    if (Date.now() >= nextProgress && Date.now() < t1 - 1000) {
      nextProgress += PROGRESS_EVERY_MS;
      const m = await metrics(base, adminToken);
      socketsSeen.push(m.vigil_agent_sockets);
      const liveStats = await subscriber.ask({ type: 'live', seconds: 10 });
      const now = Date.now();
      log(
        `  +${((now - t0) / 1000).toFixed(0)} s: sockets ${m.vigil_agent_sockets}, accepted ${f((m.vigil_agent_reports_accepted_total - lastAccepted.value) / ((now - lastAccepted.at) / 1000), 1)}/s, ` +
          (PROBES
            ? `probe results ${f(((m.vigil_probe_results_total ?? 0) - lastAccepted.results) / ((now - lastAccepted.at) / 1000), 1)}/s, `
            : '') +
          `pushes ${f(liveStats.perSecond, 1)}/s, push latency (last 10 s) p50 ${f(liveStats.latency.p50)} ms p99 ${f(liveStats.latency.p99)} ms, ` +
          `stored ${m.vigil_agent_reports_stored_total}, server RSS ${f(rss.server[rss.server.length - 1])} MiB`,
      );
      lastAccepted = { at: now, value: m.vigil_agent_reports_accepted_total, results: m.vigil_probe_results_total ?? 0 };
    }
  }
  const tEnd = Date.now();
  const cpu1 = {
    server: cpuSeconds(server.pid),
    postgres: postgresCpu(),
    fleet: fleet.map((w) => cpuSeconds(w.pid)),
    subscriber: cpuSeconds(subscriber.pid),
    machine: machineJiffies(),
  };
  const m1 = await metrics(base, adminToken);
  socketsSeen.push(m1.vigil_agent_sockets);
  if (server.exited()) throw new Error(`server exited during the run; see ${logPath}`);
  // Acks and pushes of the window's last reports arrive within the ack timeout; wait for them (bounded).
  let fleetStats = [];
  for (let attempt = 0; attempt < 24; attempt += 1) {
    await sleep(500);
    fleetStats = await Promise.all(fleet.map((w) => w.ask({ type: 'stats', from: t0, to: tEnd })));
    if (fleetStats.every((s) => s.pending === 0 && !s.probes?.pending) && attempt >= 3) break;
  }
  await Promise.all(fleet.map((w) => w.ask({ type: 'stop-reporting' })));
  const subStats = await subscriber.ask({ type: 'stats', from: t0, to: tEnd });
  // The batch writer flushes every 500 ms: let it store the window's last reports.
  await sleep(1500);
  const m2 = await metrics(base, adminToken);
  let tables = null;
  if (MODE === 'postgres') {
    const { Client } = require('pg');
    benchClient = new Client({ connectionString: env.DATABASE_URL });
    await benchClient.connect();
    const [row] = (
      await benchClient.query(
        `SELECT pg_total_relation_size('agents')::bigint AS agents, pg_total_relation_size('agent_metrics')::bigint AS metrics,
                (SELECT count(*) FROM agent_metrics)::bigint AS metric_rows, (SELECT count(*) FROM agents WHERE status = 'active')::int AS active`,
      )
    ).rows;
    tables = {
      agentsBytes: Number(row.agents),
      metricsBytes: Number(row.metrics),
      metricRows: Number(row.metric_rows),
      active: row.active,
      locationChecks: PROBES ? await storedLocationChecks(benchClient, t0, tEnd) : null,
    };
    await benchClient.end();
    benchClient = null;
  }

  const seconds = (tEnd - t0) / 1000;
  const ackLatencies = fleetStats.flatMap((s) => s.latencies);
  const ack = summary(ackLatencies);
  const sum = (key) => fleetStats.reduce((a, s) => a + s[key], 0);
  const sentInWindow = sum('inWindow');
  const acked = sum('acked');
  const fleetCounters = fleetStats.reduce(
    (a, s) => {
      for (const [k, v] of Object.entries(s.counters)) a[k] = (a[k] ?? 0) + v;
      a.skippedNotConnected += s.skipped.notConnected;
      a.skippedLate += s.skipped.late;
      return a;
    },
    { skippedNotConnected: 0, skippedLate: 0 },
  );
  const machine = ((cpu1.machine.busy - cpu0.machine.busy) / (cpu1.machine.total - cpu0.machine.total)) * 100;
  const serverCpu = ((cpu1.server - cpu0.server) / seconds) * 100;
  const accepted = m1.vigil_agent_reports_accepted_total - m0.vigil_agent_reports_accepted_total;
  const result = {
    mode: MODE,
    agents: AGENTS,
    intervalSeconds: INTERVAL_S,
    workers: WORKERS,
    fileLimits: limits,
    enrol: {
      enrolled: enrolledCount,
      failed: enrolled.failures.length,
      seconds: enrolled.seconds,
      perSecond: enrolledCount / enrolled.seconds,
      requestMs: { p50: enrolled.latency.p50, p99: enrolled.latency.p99, max: enrolled.latency.max },
      cpuPercent: enrollCpu,
    },
    connect: {
      connected: connectedByFleet,
      failed: connectFailed,
      seconds: connectSeconds,
      perSecond: connectedByFleet / connectSeconds,
      serverSockets: afterConnect.metrics.vigil_agent_sockets,
      serverOpenFiles: afterConnect.files,
      cpuPercent: connectCpu,
    },
    warmupSeconds: WARMUP_S,
    windowSeconds: seconds,
    socketsInWindow: { min: Math.min(...socketsSeen), max: Math.max(...socketsSeen) },
    reportsPerSecond: {
      expected: connectedByFleet / INTERVAL_S,
      sent: sentInWindow / seconds,
      acknowledged: acked / seconds,
      acceptedByServer: accepted / seconds,
      storedByServer: (m1.vigil_agent_reports_stored_total - m0.vigil_agent_reports_stored_total) / seconds,
    },
    reports: {
      sentInWindow,
      acked,
      ackTimedOut: sum('timedOut'),
      refused: sum('refused'),
      pendingAtEnd: sum('pending'),
      skippedNotConnected: fleetCounters.skippedNotConnected,
      skippedLate: fleetCounters.skippedLate,
    },
    pushes: {
      perSecond: subStats.arrivedInWindow / seconds,
      ofReportsSentInWindow: subStats.ofReportsSentInWindow,
      deliveredPercent: acked ? (subStats.ofReportsSentInWindow / acked) * 100 : NaN,
      agentsSeen: subStats.agentsSeen,
      statusChanges: subStats.counters.statusChanged,
      subscriberDisconnects: subStats.counters.disconnects,
    },
    pushLatencyMs: subStats.latency,
    slowPushes: subStats.slowSeconds,
    ackLatencyMs: ack,
    serverCounters: {
      accepted: m2.vigil_agent_reports_accepted_total,
      stored: m2.vigil_agent_reports_stored_total,
      rejected: m2.vigil_agent_messages_rejected_total,
      batchesFailed: m2.vigil_agent_report_batches_failed_total,
      acceptedInWindow: accepted,
      rejectedInWindow: m1.vigil_agent_messages_rejected_total - m0.vigil_agent_messages_rejected_total,
      batchesFailedInWindow: m1.vigil_agent_report_batches_failed_total - m0.vigil_agent_report_batches_failed_total,
      unstoredAtEnd: m2.vigil_agent_reports_accepted_total - m2.vigil_agent_reports_stored_total,
    },
    cpuPercent: {
      server: serverCpu,
      postgres: MODE === 'postgres' ? ((cpu1.postgres - cpu0.postgres) / seconds) * 100 : null,
      fleet: fleet.map((w, i) => ((cpu1.fleet[i] - cpu0.fleet[i]) / seconds) * 100),
      subscriber: ((cpu1.subscriber - cpu0.subscriber) / seconds) * 100,
      machine,
    },
    serverCpuMsPerReport: accepted ? ((cpu1.server - cpu0.server) * 1000) / accepted : NaN,
    otherTestRunnersSeen: `${busySamples}/${samples} samples`,
    rssMiB: {
      serverIdle: idle.rss,
      serverAfterEnrol: afterEnroll.rss,
      serverAfterConnect: afterConnect.rss,
      serverWindowStart: rss.server[0],
      serverWindowEnd: rss.server[rss.server.length - 1],
      serverWindowMax: Math.max(...rss.server),
      fleetWindowMax: Math.max(...rss.fleet),
      subscriberWindowMax: Math.max(...rss.subscriber),
    },
    eventLoopDelayMs: {
      fleetP99: Math.max(...fleetStats.map((s) => s.loopDelayP99Ms)),
      fleetMax: Math.max(...fleetStats.map((s) => s.loopDelayMaxMs)),
      subscriberP99: subStats.loopDelayP99Ms,
      subscriberMax: subStats.loopDelayMaxMs,
    },
    fleetCounters,
    database: {
      idleBytes: idle.metrics.vigil_database_bytes,
      afterEnrolBytes: afterEnroll.metrics.vigil_database_bytes,
      windowStartBytes: m0.vigil_database_bytes,
      windowEndBytes: m2.vigil_database_bytes,
      growthPerMinuteBytes: ((m2.vigil_database_bytes - m0.vigil_database_bytes) / seconds) * 60,
      bytesPer1000Reports: accepted ? ((m2.vigil_database_bytes - m0.vigil_database_bytes) / accepted) * 1000 : NaN,
      tables,
    },
    metricsFetchMs: Math.max(m0.fetchMs, m1.fetchMs),
    alerts: sink
      ? {
          sinkDelayMs: SINK_DELAY_MS,
          sinkStatus: SINK_STATUS,
          receivedInWindow: sink.count(t0, tEnd),
          perSecond: sink.count(t0, tEnd) / seconds,
          deliveredInWindow: m1.vigil_notifications_delivered_total - m0.vigil_notifications_delivered_total,
          failedAttemptsInWindow: m1.vigil_notification_attempts_failed_total - m0.vigil_notification_attempts_failed_total,
          pendingAtWindowEnd: m1.vigil_notifications_pending,
        }
      : null,
    probes: PROBES
      ? {
          creation: probeMonitors,
          ...probeFigures({
            perAgent: PROBES,
            intervalS: PROBE_INTERVAL_S,
            created: probeMonitors.created,
            checksHeld,
            fleetStats,
            subStats,
            m0,
            m1,
            seconds,
            stored: tables?.locationChecks,
            serverCpuSeconds: cpu1.server - cpu0.server,
          }),
        }
      : null,
    serverLog: logPath,
  };

  // The fleet goes before the real agent runs, so its figures are those of a quiet machine.
  log('stopping the fleet');
  await Promise.all(fleet.map((w) => w.ask({ type: 'stop' }, 30_000).catch(() => {})));
  await sleep(2000);
  if (AGENT_MINUTES > 0) {
    result.realAgent = await realAgent(server, adminToken, tempDir, AGENT_MINUTES);
  } else {
    result.realAgent = { skipped: '--agent-minutes 0' };
  }
  await subscriber.ask({ type: 'stop' }).catch(() => {});
  return result;
}

function print(r) {
  const findings = serverLogFindings(r.serverLog);
  const c = r.cpuPercent;
  const lines = [
    `${r.mode}: ${r.agents} agents at ${r.intervalSeconds} s from ${r.workers} fleet processes, window ${f(r.windowSeconds)} s after ${r.warmupSeconds} s warm-up (open files limit ${r.fileLimits.soft})`,
    `  enrolment                ${r.enrol.enrolled} in ${f(r.enrol.seconds, 1)} s (${f(r.enrol.perSecond)}/s), ${r.enrol.failed} failed; request p50 ${f(r.enrol.requestMs.p50)} ms, p99 ${f(r.enrol.requestMs.p99)} ms; ` +
      `server CPU ${f(r.enrol.cpuPercent.server)} %` +
      (r.enrol.cpuPercent.postgres === null ? '' : `, PostgreSQL ${f(r.enrol.cpuPercent.postgres)} %`),
    `  connect + hello          ${r.connect.connected} in ${f(r.connect.seconds, 1)} s (${f(r.connect.perSecond)}/s), ${r.connect.failed} failed; server gauge vigil_agent_sockets ${r.connect.serverSockets}, ` +
      `${r.connect.serverOpenFiles} open files; server CPU ${f(r.connect.cpuPercent.server)} %` +
      (r.connect.cpuPercent.postgres === null ? '' : `, PostgreSQL ${f(r.connect.cpuPercent.postgres)} %`),
    `  connected in window      ${r.socketsInWindow.min}–${r.socketsInWindow.max} sockets (server gauge); fleet disconnects ${r.fleetCounters.disconnects}, reconnects ${r.fleetCounters.reconnects}, connect errors ${r.fleetCounters.connectErrors}`,
    `  reports/s                ${f(r.reportsPerSecond.acknowledged, 1)} acknowledged, ${f(r.reportsPerSecond.sent, 1)} sent, ${f(r.reportsPerSecond.acceptedByServer, 1)} accepted and ` +
      `${f(r.reportsPerSecond.storedByServer, 1)} stored by the server (expected ${f(r.reportsPerSecond.expected, 1)})`,
    `  reports in window        ${r.reports.sentInWindow} sent, ${r.reports.acked} acked, ${r.reports.ackTimedOut} ack timeouts, ${r.reports.refused} refused, ${r.reports.pendingAtEnd} unanswered; ` +
      `skipped: ${r.reports.skippedNotConnected} not connected, ${r.reports.skippedLate} late`,
    `  pushes/s                 ${f(r.pushes.perSecond, 1)} received by the subscriber; ${r.pushes.ofReportsSentInWindow} pushes of the window's reports (${f(r.pushes.deliveredPercent, 2)} % of acked), ` +
      `${r.pushes.agentsSeen} agents seen, subscriber disconnects ${r.pushes.subscriberDisconnects}`,
    `  report → push latency    p50 ${f(r.pushLatencyMs.p50)} ms, p95 ${f(r.pushLatencyMs.p95)} ms, p99 ${f(r.pushLatencyMs.p99)} ms, p99.9 ${f(r.pushLatencyMs.p999)} ms, max ${f(r.pushLatencyMs.max)} ms (mean ${f(r.pushLatencyMs.mean, 1)} ms, ${r.pushLatencyMs.count} pushes)`,
    `  pushes over 100 ms       ${r.slowPushes.pushesOver100ms} in ${r.slowPushes.withPushesOver100ms} of ${r.slowPushes.seconds} seconds` +
      (r.slowPushes.worst.length
        ? ` (${r.slowPushes.worst
            .slice(0, 12)
            .map((b) => `${b.at} ${b.over100}× max ${f(b.max)} ms`)
            .join(', ')})`
        : ''),
    `  report → ack latency     p50 ${f(r.ackLatencyMs.p50)} ms, p99 ${f(r.ackLatencyMs.p99)} ms, max ${f(r.ackLatencyMs.max)} ms`,
    `  server counters          accepted ${r.serverCounters.accepted}, stored ${r.serverCounters.stored} (${r.serverCounters.unstoredAtEnd} not stored at the end), rejected ${r.serverCounters.rejected}, ` +
      `failed batches ${r.serverCounters.batchesFailed} (in the window: rejected ${r.serverCounters.rejectedInWindow}, failed batches ${r.serverCounters.batchesFailedInWindow})`,
    ...(r.probes ? probeLines(r.probes) : []),
    `  CPU (100 % = one core)   server ${f(c.server, 1)} %` +
      (c.postgres === null ? '' : `, PostgreSQL ${f(c.postgres, 1)} %`) +
      `, fleet ${c.fleet.map((v) => `${f(v, 1)} %`).join(' + ')}, subscriber ${f(c.subscriber, 1)} %; whole machine ${f(c.machine, 1)} % of 2 cores ` +
      `(other test runners in ${r.otherTestRunnersSeen}); server ${f(r.serverCpuMsPerReport, 3)} ms CPU per report`,
    `  server RSS               ${f(r.rssMiB.serverIdle)} MiB idle, ${f(r.rssMiB.serverAfterEnrol)} after enrolment, ${f(r.rssMiB.serverAfterConnect)} with all connected, ` +
      `window ${f(r.rssMiB.serverWindowStart)} → ${f(r.rssMiB.serverWindowEnd)} MiB (max ${f(r.rssMiB.serverWindowMax)})`,
    `  fleet / subscriber       RSS ${f(r.rssMiB.fleetWindowMax)} MiB (all fleet processes) / ${f(r.rssMiB.subscriberWindowMax)} MiB; event-loop delay p99 ${f(r.eventLoopDelayMs.fleetP99, 1)} / ` +
      `${f(r.eventLoopDelayMs.subscriberP99, 1)} ms, max ${f(r.eventLoopDelayMs.fleetMax)} / ${f(r.eventLoopDelayMs.subscriberMax)} ms`,
    `  database                 ${f(mib(r.database.idleBytes), 1)} MiB empty, ${f(mib(r.database.afterEnrolBytes), 1)} after enrolment, window ${f(mib(r.database.windowStartBytes), 1)} → ` +
      `${f(mib(r.database.windowEndBytes), 1)} MiB (${f(mib(r.database.growthPerMinuteBytes), 2)} MiB/min, ${f(r.database.bytesPer1000Reports / 1024, 1)} KiB per 1,000 reports)` +
      (r.database.tables
        ? `; agents ${f(mib(r.database.tables.agentsBytes), 1)} MiB, agent_metrics ${f(mib(r.database.tables.metricsBytes), 1)} MiB (${r.database.tables.metricRows} rows), ${r.database.tables.active} agents active`
        : ''),
    ...(r.alerts
      ? [
          `  alerts                   ${r.alerts.receivedInWindow} webhook posts in the window (${f(r.alerts.perSecond, 1)}/s) to a sink answering ${r.alerts.sinkStatus} after ${r.alerts.sinkDelayMs} ms; ` +
            `delivered ${r.alerts.deliveredInWindow}, failed attempts ${r.alerts.failedAttemptsInWindow}, pending at the end ${r.alerts.pendingAtWindowEnd}`,
        ]
      : []),
    `  server log               ${r.serverLog}: ${findings.lines} lines, ${findings.problems.length} with error/warn/fail`,
    ...findings.problems.slice(0, 5).map((line) => `    ${line.slice(0, 240)}`),
  ];
  const a = r.realAgent;
  if (a.skipped) lines.push(`  real agent               skipped: ${a.skipped}`);
  else {
    lines.push(
      `  real agent               ${f(a.seconds)} s sampled every ${SAMPLE_MS / 1000} s (${a.samples} samples)${a.exitedEarly ? `, EXITED EARLY ${JSON.stringify(a.exitedEarly)}` : ''}: ` +
        `RSS max ${f(a.rssMiB.max, 1)} MiB, avg ${f(a.rssMiB.avg, 1)} MiB (${f(a.rssMiB.first, 1)} → ${f(a.rssMiB.last, 1)}); CPU avg ${f(a.cpuPercent.own, 2)} % ` +
        `(${f(a.cpuPercent.withChildren, 2)} % with its child processes); config written ${a.configWritten}`,
      a.server
        ? `  real agent on the server agent ${a.server.id} "${a.server.hostname}" ${a.server.status}, version ${a.server.version}, cpu ${a.server.cpu_usage} %, memory ${f(mib(a.server.memory_used))}/${f(mib(a.server.memory_total))} MiB, ` +
            `disk total ${f(a.server.disk_total / 2 ** 30, 1)} GiB, rx ${a.server.network_rx} KB/s, interval ${a.server.interval} s, last report ${a.server.updated_at}, ${a.server.chartPoints1h} chart points (1h)`
        : `  real agent on the server NOT FOUND by its registration token; see ${a.log}`,
    );
  }
  console.log(lines.join('\n'));
  console.log(`  json ${JSON.stringify(r)}`);
}

try {
  print(await run());
} catch (error) {
  console.log(`${MODE}: run failed: ${error.stack ?? error.message}`);
} finally {
  await cleanup();
}
process.exit(0);

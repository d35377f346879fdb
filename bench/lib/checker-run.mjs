// Pieces shared by `bench:checker` and `bench:cluster`: the loopback target process, a server process on a free
// port, and the analysis of the target's arrival log against each monitor's spread slots.
import { fork, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort, percentile, sleep } from './measure.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '../..');
/** The built server the benches run: `server/dist`, or the folder BENCH_SERVER_DIST names (relative to `server/`). */
export const SERVER_DIST = join(ROOT, 'server', process.env.BENCH_SERVER_DIST ?? 'dist');
export const MAIN = join(SERVER_DIST, 'main.js');
const TARGET = join(import.meta.dirname, 'checker-target.mjs');
// The server's own slot function, so lateness is measured against the slots it schedules on.
export const { spreadOffsetMs } = require(join(SERVER_DIST, 'monitors/monitor-state.js'));

/**
 * A target script in its own process (IPC): resolves once it sends its first message (`ready`, e.g. its ports);
 * `ask(message)` sends a message and resolves with the first reply of the same `type`; `stop()` asks it to stop and
 * kills it after 5 s.
 */
export async function forkTarget(script, args, { name, startMs }) {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), startMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  const ask = (message) =>
    new Promise((resolve) => {
      const onMessage = (reply) => {
        if (reply.type !== message.type) return;
        child.off('message', onMessage);
        resolve(reply);
      };
      child.on('message', onMessage);
      child.send(message);
    });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.send({ type: 'stop' });
    });
  return { pid: child.pid, ready, ask, stop };
}

/**
 * The target in its own process; `delayMs` holds every answer that long (checks stay in flight); it listens on
 * `origins` ports (`ports`; `port` is the first), each an origin of its own to the checker.
 */
export async function startTarget({ delayMs = 0, origins = 1 } = {}) {
  const target = await forkTarget(TARGET, [String(delayMs), String(origins)], { name: 'target', startMs: 10_000 });
  const { ports } = target.ready;
  return { pid: target.pid, port: ports[0], ports, ask: (type) => target.ask({ type }), stop: target.stop };
}

export async function startServer(env, logPath, nodeArgs = []) {
  const port = await freePort();
  const out = createWriteStream(logPath);
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const base = `http://127.0.0.1:${port}`;
  let healthy = false;
  for (let attempt = 0; attempt < 1200 && child.exitCode === null; attempt += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) {
        healthy = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
      child.kill('SIGTERM');
    });
  if (!healthy) {
    await stop();
    throw new Error(`server did not become healthy; see ${logPath}`);
  }
  return { pid: child.pid, base, stop, exited: () => child.exitCode !== null || child.signalCode !== null };
}

/** Lateness and per-monitor counts from the target's arrival log, over slots in [t0, t1). */
export function analyseArrivals(arrivals, ids, t0, t1, warmupFrom, INTERVAL_MS, offsetOf = (id) => spreadOffsetMs(id, INTERVAL_MS)) {
  const indexToId = ids;
  const perMonitor = new Int32Array(ids.length);
  const seen = new Uint8Array(ids.length);
  const lateness = [];
  // Checks on their slot between the start of creation and the window, without each monitor's first request (the
  // check at creation, which is due at once rather than on a slot).
  const warmup = [];
  let arrivalsInWindow = 0;
  let offSlot = 0;
  for (let i = 0; i < arrivals.index.length; i += 1) {
    const at = arrivals.at[i];
    const index = arrivals.index[i];
    if (at >= t0 && at < t1) arrivalsInWindow += 1;
    const id = indexToId[index];
    if (id === undefined) continue;
    const offset = offsetOf(id);
    const late = (((at - offset) % INTERVAL_MS) + INTERVAL_MS) % INTERVAL_MS;
    const slot = at - late;
    const first = !seen[index];
    seen[index] = 1;
    if (!first && slot >= warmupFrom && slot < t0) warmup.push(late);
    if (slot < t0 || slot >= t1) continue;
    perMonitor[index] += 1;
    // More than 10 s after its slot is not a scheduled check running late on this target (a retry, or a check
    // far behind): counted apart, and still in the lateness figures.
    if (late > 10_000) offSlot += 1;
    lateness.push(late);
  }
  lateness.sort((a, b) => a - b);
  warmup.sort((a, b) => a - b);
  const slotsPerMonitor = Math.round((t1 - t0) / INTERVAL_MS);
  let min = Infinity;
  let max = -Infinity;
  let missed = 0;
  let extra = 0;
  let monitorsMissing = 0;
  let monitorsExtra = 0;
  for (let index = 0; index < ids.length; index += 1) {
    if (ids[index] === undefined) continue;
    const count = perMonitor[index];
    min = Math.min(min, count);
    max = Math.max(max, count);
    if (count < slotsPerMonitor) {
      missed += slotsPerMonitor - count;
      monitorsMissing += 1;
    }
    if (count > slotsPerMonitor) {
      extra += count - slotsPerMonitor;
      monitorsExtra += 1;
    }
  }
  return {
    arrivalsInWindow,
    onSlots: lateness.length,
    slotsPerMonitor,
    min,
    missed,
    extra,
    monitorsMissing,
    monitorsExtra,
    offSlot,
    p50: percentile(lateness, 0.5),
    p99: percentile(lateness, 0.99),
    p999: percentile(lateness, 0.999),
    max: lateness.length ? lateness[lateness.length - 1] : NaN,
    maxPerMonitor: max,
    warmup: {
      samples: warmup.length,
      p50: percentile(warmup, 0.5),
      p99: percentile(warmup, 0.99),
      max: warmup.length ? warmup[warmup.length - 1] : NaN,
    },
  };
}

// `bench:checker --black-holed N`: N TCP monitors on one black-holed loopback origin beside the healthy ones. The
// origin is a listening socket that never accepts (python3, as Node accepts every connection itself): once its
// backlog is full, the kernel drops further SYNs, so connects hang until the monitor's timeout, as for a host
// behind a dead router. Nothing leaves the machine.
import { spawn } from 'node:child_process';
import { storedChecks } from './checker-mix.mjs';
import { spreadOffsetMs } from './checker-run.mjs';
import { percentile } from './measure.mjs';

const LISTENER = `
import socket, time
s = socket.socket()
s.bind(('127.0.0.1', 0))
s.listen(0)
print(s.getsockname()[1], flush=True)
while True:
    time.sleep(3600)
`;

/** The black-holed origin: `{ port, stop }`. */
export async function startBlackHole() {
  const child = spawn('python3', ['-c', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`black-hole listener exited with ${code}`)));
    child.stdout.once('data', (data) => resolve(Number(String(data).trim())));
  });
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

export function blackHoledBody(index, port, { interval, timeout }) {
  return { name: `bench black-holed ${index}`, type: 'tcp', hostname: '127.0.0.1', port, interval, timeout };
}

/** Monitors whose stored checks are read back (each a request): enough for p99, not 5,000 requests. */
const SAMPLE = 400;

/**
 * The black-holed monitors' stored checks due in [t0, t1): lateness = checked_at − slot (a probe's start, or when a
 * check over the origin's budget began to wait), how they ended, and slots with no check.
 */
export async function blackHoleFigures({ base, token, ids, t0, t1, intervalMs }) {
  const offsetOf = (id) => spreadOffsetMs(id, intervalMs);
  const step = Math.max(1, Math.floor(ids.length / SAMPLE));
  const entries = ids.map((id, index) => ({ id, index })).filter((entry, i) => entry.id !== undefined && i % step === 0);
  const stored = await storedChecks(base, token, entries, Math.ceil(((t1 - t0) / intervalMs) * 2) + 10);
  const lateness = [];
  const perMonitor = new Map(entries.map((entry) => [entry.index, 0]));
  for (let i = 0; i < stored.at.length; i += 1) {
    const id = ids[stored.index[i]];
    const at = stored.at[i];
    const late = (((at - offsetOf(id)) % intervalMs) + intervalMs) % intervalMs;
    const slot = at - late;
    if (slot < t0 || slot >= t1) continue;
    lateness.push(late);
    perMonitor.set(stored.index[i], perMonitor.get(stored.index[i]) + 1);
  }
  lateness.sort((a, b) => a - b);
  const inWindow = (d) => d.at - ((((d.at - offsetOf(ids[d.index])) % intervalMs) + intervalMs) % intervalMs) >= t0 && d.at < t1;
  const downs = stored.down.filter(inWindow);
  const waited = downs.filter((d) => /waiting for/.test(d.error ?? '')).length;
  const slots = Math.round((t1 - t0) / intervalMs);
  const missed = [...perMonitor.values()].reduce((sum, count) => sum + Math.max(0, slots - count), 0);
  return {
    monitors: ids.filter((id) => id !== undefined).length,
    sampled: entries.length,
    checks: lateness.length,
    p50: percentile(lateness, 0.5),
    p99: percentile(lateness, 0.99),
    max: lateness.length ? lateness[lateness.length - 1] : NaN,
    down: downs.length,
    waitedOut: waited,
    probedTimeouts: downs.length - waited,
    up: lateness.length - downs.length,
    missed,
    errors: [...new Set(downs.map((d) => (d.error ?? '').replace(/\d+/g, 'N')))].slice(0, 3),
  };
}

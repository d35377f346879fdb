// What every benchmark needs: options, logging, /proc readings, percentiles, a free port and the Vigil API.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';

export function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const log = (line) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
export const f = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** The fields of /proc/<pid>/stat after the command name, or null when the process is gone. */
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) of one process, or null when it is gone. */
export function cpuSeconds(pid) {
  const fields = procStat(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / CLK_TCK : null;
}

/** Of cpuSeconds, the part spent in the kernel on the process's behalf (stime): syscalls, and on loopback the peer's side of its packets. */
export function kernelCpuSeconds(pid) {
  const fields = procStat(pid);
  return fields ? Number(fields[12]) / CLK_TCK : null;
}

/** Of cpuSeconds, the part of the main thread (the event loop); the rest is V8's helper threads (GC, compiler) and libuv's pool. */
export function mainThreadCpuSeconds(pid) {
  const fields = procStat(`${pid}/task/${pid}`);
  return fields ? (Number(fields[11]) + Number(fields[12])) / CLK_TCK : null;
}

/** CPU seconds of the children a process has waited for (cutime + cstime). */
export function childCpuSeconds(pid) {
  const fields = procStat(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) / CLK_TCK : null;
}

export function rssMiB(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
  } catch {
    return null;
  }
}

export function openFiles(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** CPU seconds of all PostgreSQL processes (live ones, plus exited backends counted in the postmaster's cutime). */
export function postgresCpu() {
  const processes = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      processes.set(name, {
        ppid: fields[1],
        own: Number(fields[11]) + Number(fields[12]),
        children: Number(fields[13]) + Number(fields[14]),
      });
    } catch {
      // exited meanwhile
    }
  }
  let ticks = 0;
  for (const entry of processes.values()) {
    ticks += entry.own;
    if (!processes.has(entry.ppid)) ticks += entry.children; // the postmaster
  }
  return ticks / CLK_TCK;
}

/** Busy and total jiffies of the whole machine (all cores). */
export function machineJiffies() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const numbers = values.map(Number);
  const total = numbers.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - numbers[3] - numbers[4], total };
}

/** Other processes competing for the cores, matched by command line. */
export function otherTestRunners(pattern = 'jest|vitest|playwright') {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' })
      .split('\n')
      .filter((pid) => pid && Number(pid) !== process.pid).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

export function percentile(sorted, q) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

export async function api(base, token, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

/**
 * The server's `/api/metrics` as name → number, with how long the read took; a histogram's buckets are under
 * `buckets[name]` as [upper bound, cumulative count] pairs (its `_sum` and `_count` are plain values).
 */
export async function metrics(base, token) {
  const started = performance.now();
  const response = await api(base, token, 'GET', '/api/metrics');
  if (response.status !== 200) throw new Error(`/api/metrics answered ${response.status}: ${response.text.slice(0, 200)}`);
  const values = { fetchMs: performance.now() - started, buckets: {} };
  for (const line of response.text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*) (\S+)$/.exec(line);
    if (match) values[match[1]] = Number(match[2]);
    const bucket = /^([a-zA-Z_:][a-zA-Z0-9_:]*)_bucket\{le="([^"]+)"\} (\S+)$/.exec(line);
    if (bucket) (values.buckets[bucket[1]] ??= []).push([bucket[2] === '+Inf' ? Infinity : Number(bucket[2]), Number(bucket[3])]);
  }
  return values;
}

/**
 * One histogram over a window, from two reads of `/api/metrics`: count, mean and percentiles. A percentile is
 * interpolated within its bucket, as Prometheus' histogram_quantile does (so it is as fine as the buckets); one
 * beyond the last finite bound reads as that bound.
 */
export function histogramWindow(before, after, name) {
  const start = before.buckets?.[name] ?? [];
  const end = after.buckets?.[name];
  if (!end) return null;
  const count = after[`${name}_count`] - (before[`${name}_count`] ?? 0);
  const sum = after[`${name}_sum`] - (before[`${name}_sum`] ?? 0);
  const buckets = end.map(([bound, total], i) => [bound, total - (start[i]?.[1] ?? 0)]);
  const quantile = (q) => {
    if (!count) return NaN;
    const rank = q * count;
    let lower = 0;
    let below = 0;
    for (const [bound, cumulative] of buckets) {
      if (cumulative >= rank) {
        if (!Number.isFinite(bound)) return lower;
        return lower + ((bound - lower) * (rank - below)) / Math.max(1, cumulative - below);
      }
      lower = bound;
      below = cumulative;
    }
    return lower;
  };
  return { count, mean: count ? sum / count : NaN, p50: quantile(0.5), p99: quantile(0.99) };
}

/** A process and all its descendants (the server, and in embedded mode its postmaster and backends). */
export function processTree(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStat(Number(name));
    if (!fields) continue;
    const parent = Number(fields[1]);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(Number(name));
  }
  const tree = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift();
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

function smapsKiB(pid, field) {
  try {
    return Number(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))[1]);
  } catch {
    return 0;
  }
}

/**
 * Memory of a whole process tree: `rss` adds every process's VmRSS (shared pages, e.g. PostgreSQL's shared buffers,
 * counted once per process that touched them, so an upper bound); `pss` shares them out (the tree's real footprint).
 */
export function treeMemoryMiB(root) {
  const pids = processTree(root);
  return {
    rss: pids.reduce((sum, pid) => sum + (rssMiB(pid) ?? 0), 0),
    pss: pids.reduce((sum, pid) => sum + smapsKiB(pid, 'Pss'), 0) / 1024,
    processes: pids.length,
  };
}

/** CPU seconds of a process tree: live processes, plus exited children already waited for (cutime + cstime). */
export function treeCpuSeconds(root) {
  return processTree(root).reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0) + (childCpuSeconds(pid) ?? 0), 0);
}

/** Bytes of the files under a folder. */
export function folderBytes(path) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = `${path}/${entry.name}`;
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

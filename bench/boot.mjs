// `npm run bench:boot [-- --runs N --idle-seconds S --compare <other build's server/dist/main.js>]`: time from process
// start to a healthy /api/health in the default (embedded) mode, cold (new data folder) and warm (same folder again),
// and the memory of Vigil plus every database process it started (the process tree: RSS summed, and PSS, which
// counts shared pages once) at healthy, at its peak during boot, and idle S seconds later. `--compare` boots another
// build the same way in the same run (e.g. a PGlite release), so both engines are measured side by side. With
// BENCH_DATABASE_URL, also boots on that PostgreSQL. Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderBytes, freePort, option, treeMemoryMiB } from './lib/measure.mjs';

const MAIN = join(import.meta.dirname, '../server/dist/main.js');
const RUNS = Number(option('runs', 3));
const IDLE_S = Number(option('idle-seconds', 15));
const COMPARE = option('compare', null);

async function bootOnce(main, env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', ...env },
    stdio: 'ignore',
  });
  let peak = 0;
  try {
    let healthy = false;
    for (let attempt = 0; attempt < 1200 && !healthy; attempt += 1) {
      peak = Math.max(peak, treeMemoryMiB(child.pid).rss);
      try {
        healthy = (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
      } catch {
        // not yet listening
      }
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const elapsed = performance.now() - started;
    const atHealthy = treeMemoryMiB(child.pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const idle = treeMemoryMiB(child.pid);
    return { elapsed, atHealthy, peak: Math.max(peak, atHealthy.rss), idle };
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const f = (n) => n.toFixed(0).padStart(5);

function report(name, runs, dataBytes) {
  const times = runs.map((r) => r.elapsed).sort((a, b) => a - b);
  console.log(
    `${name.padEnd(34)} median ${f(median(times))} ms  min ${f(times[0])} ms | at healthy RSS ${f(median(runs.map((r) => r.atHealthy.rss)))} / PSS ${f(median(runs.map((r) => r.atHealthy.pss)))} MiB` +
      ` | peak RSS ${f(Math.max(...runs.map((r) => r.peak)))} MiB | idle ${IDLE_S} s RSS ${f(median(runs.map((r) => r.idle.rss)))} / PSS ${f(median(runs.map((r) => r.idle.pss)))} MiB` +
      ` (${runs[0].idle.processes} processes)${dataBytes ? ` | data ${(dataBytes / 2 ** 20).toFixed(1)} MiB` : ''} (${runs.length} runs)`,
  );
}

async function embedded(label, main) {
  const cold = [];
  const warm = [];
  let dataBytes = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
    // As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the folder.
    chmodSync(dataDir, 0o755);
    cold.push(await bootOnce(main, { DATA_DIR: dataDir }));
    warm.push(await bootOnce(main, { DATA_DIR: dataDir }));
    dataBytes = folderBytes(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
  report(`${label}, cold (new data)`, cold, dataBytes);
  report(`${label}, warm (restart)`, warm);
}

await embedded('embedded (this build)', MAIN);
if (COMPARE) await embedded(`embedded (${COMPARE})`, COMPARE);
if (process.env.BENCH_DATABASE_URL) {
  const pg = [];
  for (let i = 0; i < RUNS; i += 1) pg.push(await bootOnce(MAIN, { DATABASE_URL: process.env.BENCH_DATABASE_URL }));
  report('PostgreSQL (DATABASE_URL)', pg);
}

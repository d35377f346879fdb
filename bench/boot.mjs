// `npm run bench:boot`: time from process start to a healthy /api/health, embedded PGlite cold (new data folder)
// and warm (same folder again), and on PostgreSQL when BENCH_DATABASE_URL is set. Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, rssMiB } from './lib/measure.mjs';

const MAIN = join(import.meta.dirname, '../server/dist/main.js');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;

async function bootOnce(env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', ...env }, stdio: 'ignore' });
  try {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
      } catch {
        // not yet listening
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const elapsed = performance.now() - started;
    const memory = rssMiB(child.pid);
    return { elapsed, memory };
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
}

function report(name, runs) {
  const times = runs.map((r) => r.elapsed).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const rss = Math.max(...runs.map((r) => r.memory));
  console.log(`${name.padEnd(28)} median ${median.toFixed(0).padStart(5)} ms   min ${times[0].toFixed(0).padStart(5)} ms   RSS ${rss.toFixed(0)} MiB   (${runs.length} runs)`);
}

const cold = [];
const warm = [];
for (let i = 0; i < RUNS; i += 1) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  cold.push(await bootOnce({ DATA_DIR: dataDir }));
  warm.push(await bootOnce({ DATA_DIR: dataDir }));
  rmSync(dataDir, { recursive: true, force: true });
}
report('embedded, cold (new data)', cold);
report('embedded, warm (restart)', warm);
if (process.env.BENCH_DATABASE_URL) {
  const pg = [];
  for (let i = 0; i < RUNS; i += 1) pg.push(await bootOnce({ DATABASE_URL: process.env.BENCH_DATABASE_URL }));
  report('PostgreSQL', pg);
}

// `npm run bench:cluster -- --instances 2 --monitors N [--minutes M] [--warmup S] [--after-kill S] [--target-delay-ms D]
//   [--redis redis://127.0.0.1:6379] [--redis-hz 100] [--check-concurrency C]`
//
// The checker benchmark against several instances sharing one PostgreSQL and one Redis (scale-out). N monitors at
// 60 s, each on its own path of the keep-alive loopback target (answering after D ms, 10 by default, so checks are
// in flight when an instance dies; the checker keeps 32 connections per origin, so one origin answering after D ms
// caps an instance at 32 / D checks per ms: 100 ms held two instances to ~590 checks/s). Monitors are written straight into a fresh database (the API would take minutes
// for 50,000); the instances then start together and one of them writes the BullMQ schedulers (reconcile). After a
// warm-up the window is measured; then the last instance is killed with SIGKILL and the survivors are watched.
// Prints: checks/s, lateness p50/p99 at the target, misses/duplicates per monitor, per-instance CPU and RSS, Redis
// CPU and memory, PostgreSQL CPU, and after the kill: misses in the following slots and the takeover time of the dead
// instance's in-flight checks (re-run by a survivor once their lock expired). Asserts nothing.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseArrivals, startServer, startTarget } from './lib/checker-run.mjs';
import {
  api,
  cpuSeconds,
  f,
  log,
  machineJiffies,
  metrics,
  option,
  otherTestRunners,
  percentile,
  postgresCpu,
  rssMiB,
  sleep,
} from './lib/measure.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const Redis = require('ioredis');
const { spreadOffsetMs } = require(join(import.meta.dirname, '../server/dist/monitors/monitor-state.js'));

const INSTANCES = Math.max(1, Math.floor(Number(option('instances', 2))));
const MONITORS = Math.max(1, Math.floor(Number(option('monitors', 1000))));
const MINUTES = Math.max(1, Number(option('minutes', 2)));
const WARMUP_S = Math.max(0, Number(option('warmup', 70)));
const AFTER_KILL_S = Math.max(70, Number(option('after-kill', 80)));
const TARGET_DELAY_MS = Math.max(0, Number(option('target-delay-ms', 10)));
const REDIS_URL = option('redis', process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
const REDIS_HZ = option('redis-hz', null);
const CHECK_CONCURRENCY = option('check-concurrency', null);
const ADMIN_URL = option('postgres', process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const INTERVAL_MS = 60_000;
const SAMPLE_MS = 5000;

/** Redis's own CPU seconds and memory, from INFO. */
async function redisFigures(redis) {
  const info = await redis.info();
  const value = (name) => Number(new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1]);
  return { cpu: value('used_cpu_sys') + value('used_cpu_user'), memoryMiB: value('used_memory') / 2 ** 20 };
}

async function deleteKeys(redis, prefix) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Monitors written in one statement; returns ids by target path index. */
async function seedMonitors(db, targetPort) {
  const { rows } = await db.query(
    `INSERT INTO monitors (name, url, interval_s, timeout_s, retries)
     SELECT 'bench ' || n, 'http://127.0.0.1:' || $2::text || '/m/' || n, 60, 10, 0 FROM generate_series(0, $1::int - 1) n
     RETURNING id, name`,
    [MONITORS, targetPort],
  );
  const ids = new Array(MONITORS);
  for (const row of rows) ids[Number(row.name.slice(6))] = row.id;
  return ids;
}

/** Checks of a killed instance run again by a survivor: arrivals after the kill for a slot before it, > 5 s late. */
function reruns(arrivals, ids, killedAt) {
  const delays = [];
  for (let i = 0; i < arrivals.at.length; i += 1) {
    const at = arrivals.at[i];
    const id = ids[arrivals.index[i]];
    if (at < killedAt || id === undefined) continue;
    const offset = spreadOffsetMs(id, INTERVAL_MS);
    const late = (((at - offset) % INTERVAL_MS) + INTERVAL_MS) % INTERVAL_MS;
    if (late > 5000 && at - late < killedAt) delays.push(at - killedAt);
  }
  return delays.sort((a, b) => a - b);
}

async function main() {
  const stamp = `${process.pid}_${Date.now()}`;
  const prefix = `vigil-bench-${stamp}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const hzBefore = (await redis.config('GET', 'hz'))[1];
  if (REDIS_HZ !== null) await redis.config('SET', 'hz', String(REDIS_HZ));
  const hz = (await redis.config('GET', 'hz'))[1];
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const database = `vigil_bench_cluster_${stamp}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-cluster-'));
  const env = {
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ...(CHECK_CONCURRENCY ? { CHECK_CONCURRENCY } : {}),
  };
  const target = await startTarget({ delayMs: TARGET_DELAY_MS });
  const servers = [];
  const logPath = (i) => join(tmpdir(), `vigil-bench-cluster-${stamp}-${i}.log`);
  try {
    log(
      `bench:cluster ${INSTANCES} instances, ${MONITORS} monitors at 60 s, Redis hz ${hz}, target delay ${TARGET_DELAY_MS} ms, CHECK_CONCURRENCY ${CHECK_CONCURRENCY ?? 'default'}`,
    );
    // One instance creates the schema and the admin, then stops; the monitors go straight into the table.
    const first = await startServer(env, logPath('setup'));
    const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
    await api(first.base, null, 'POST', '/api/auth/register', credentials);
    await first.stop();
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const ids = await seedMonitors(db, target.port);
    await db.end();

    const booted = Date.now();
    servers.push(...(await Promise.all(Array.from({ length: INSTANCES }, (_, i) => startServer(env, logPath(i))))));
    const login = await api(servers[0].base, null, 'POST', '/api/auth/login', {
      username: credentials.username,
      password: credentials.password,
    });
    const { token } = login.json();
    for (;;) {
      if ((await redis.zcard(`${prefix}:checks:repeat`)) >= MONITORS) break;
      if (Date.now() - booted > 15 * 60_000) throw new Error('schedulers were not all written within 15 min');
      await sleep(500);
    }
    const reconcileSeconds = (Date.now() - booted) / 1000;
    log(`schedulers for ${MONITORS} monitors written ${f(reconcileSeconds, 1)} s after start; warm-up ${WARMUP_S} s`);
    await sleep(WARMUP_S * 1000);

    const t0 = Date.now();
    const t1 = t0 + MINUTES * 60_000;
    const pids = servers.map((s) => s.pid);
    const cpu0 = {
      servers: pids.map(cpuSeconds),
      postgres: postgresCpu(),
      redis: (await redisFigures(redis)).cpu,
      machine: machineJiffies(),
    };
    const m0 = await Promise.all(servers.map((s) => metrics(s.base, token)));
    const rss = pids.map((pid) => [rssMiB(pid)]);
    const redisMemory = [];
    let busy = 0;
    let samples = 0;
    log(`measuring ${MINUTES} min`);
    while (Date.now() < t1) {
      await sleep(Math.min(SAMPLE_MS, t1 - Date.now()));
      pids.forEach((pid, i) => rss[i].push(rssMiB(pid)));
      redisMemory.push((await redisFigures(redis)).memoryMiB);
      samples += 1;
      if (otherTestRunners() > 0) busy += 1;
    }
    const seconds = (Date.now() - t0) / 1000;
    const cpu1 = {
      servers: pids.map(cpuSeconds),
      postgres: postgresCpu(),
      redis: (await redisFigures(redis)).cpu,
      machine: machineJiffies(),
    };
    const m1 = await Promise.all(servers.map((s) => metrics(s.base, token)));
    await sleep(2000);
    const window = analyseArrivals(await target.ask('arrivals'), ids, t0, t1, booted, INTERVAL_MS);

    // The crash: the last instance dies with its checks in flight; the others must take its share at once and re-run
    // its in-flight checks once their locks expire.
    const victim = servers[servers.length - 1];
    const killedAt = Date.now();
    process.kill(victim.pid, 'SIGKILL');
    log(`killed instance ${servers.length - 1}; watching ${AFTER_KILL_S} s`);
    await sleep(AFTER_KILL_S * 1000);
    const arrivalsAfter = await target.ask('arrivals');
    // Every monitor's one slot in the interval after the kill (watched 10 s longer: late checks still count).
    const afterKill = analyseArrivals(arrivalsAfter, ids, killedAt, killedAt + INTERVAL_MS, booted, INTERVAL_MS);
    const rerun = reruns(arrivalsAfter, ids, killedAt);

    const pct = (a, b) => ((b - a) / seconds) * 100;
    const started = m1.reduce((sum, m, i) => sum + m.vigil_checks_started_total - m0[i].vigil_checks_started_total, 0);
    console.log(
      [
        `${INSTANCES} instances, ${MONITORS} monitors at 60 s, window ${f(seconds)} s after ${WARMUP_S} s warm-up (schedulers written in ${f(reconcileSeconds, 1)} s); Redis hz ${hz}`,
        `  checks/s                 ${f(window.arrivalsInWindow / seconds, 1)} at the target, ${f(started / seconds, 1)} started (expected ${f(MONITORS / 60, 1)})`,
        `  per instance started     ${m1.map((m, i) => f((m.vigil_checks_started_total - m0[i].vigil_checks_started_total) / seconds, 1)).join(' / ')} checks/s`,
        `  checks per monitor       expected ${window.slotsPerMonitor}, min ${window.min}, max ${window.maxPerMonitor}; missed ${window.missed} (${window.monitorsMissing} monitors), extra ${window.extra} (${window.monitorsExtra} monitors)`,
        `  lateness at target       p50 ${f(window.p50)} ms, p99 ${f(window.p99)} ms, p99.9 ${f(window.p999)} ms, max ${f(window.max)} ms (${window.onSlots} checks)`,
        `  lateness, server rings   p99 ${m1.map((m) => f(m.vigil_check_lateness_p99_ms)).join(' / ')} ms`,
        `  CPU (100 % = one core)   instances ${cpu1.servers.map((c, i) => f(pct(cpu0.servers[i], c), 1)).join(' / ')} %, Redis ${f(pct(cpu0.redis, cpu1.redis), 1)} %, PostgreSQL ${f(pct(cpu0.postgres, cpu1.postgres), 1)} %; ` +
          `machine ${f(((cpu1.machine.busy - cpu0.machine.busy) / (cpu1.machine.total - cpu0.machine.total)) * 100, 1)} % of all cores (other test runners in ${busy}/${samples} samples)`,
        `  RSS                      instances ${rss.map((r) => `${f(r[0])} → ${f(r[r.length - 1])} (max ${f(Math.max(...r))})`).join(' / ')} MiB; Redis used_memory max ${f(Math.max(...redisMemory), 1)} MiB`,
        `  after SIGKILL            slots due in the next 60 s: missed ${afterKill.missed} (${afterKill.monitorsMissing} monitors), extra ${afterKill.extra}, lateness p50 ${f(afterKill.p50)} / p99 ${f(afterKill.p99)} / max ${f(afterKill.max)} ms`,
        `  takeover                 ${rerun.length} in-flight checks of the dead instance re-run after ${f(percentile(rerun, 0))}–${f(rerun[rerun.length - 1])} ms (p50 ${f(percentile(rerun, 0.5))} ms)`,
        `  logs                     ${servers.map((_, i) => logPath(i)).join(', ')}`,
      ].join('\n'),
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await target.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await admin
      .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      .catch((error) => log(`could not drop ${database}: ${error.message}`));
    await admin.end();
    await deleteKeys(redis, prefix);
    if (REDIS_HZ !== null) await redis.config('SET', 'hz', hzBefore);
    redis.disconnect();
  }
}

await main();

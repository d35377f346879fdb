// `npm run bench:status -- [--monitors M] [--agents A] [--hourly H] [--days D] [--runs R] [--changes C] [--postgres ADMIN_URL]`
//
// A public status page with 10,000 components, in Chromium, against the built server (server/dist, or
// BENCH_SERVER_DIST) and client (client/dist, or BENCH_CLIENT_DIR) on a fresh PostgreSQL database on
// 127.0.0.1:5432, dropped afterwards:
// 1. M monitors (default 9,000, one made through the API and copied in SQL) and A agents (default 1,000) with
//    H of the monitors (default 2,000) carrying D days (default 30) of hourly aggregates for the daily bars; one more
//    monitor, made through the API, checks a loopback target this process answers 200 or 500 (the live change);
// 2. a page `bench` with all of them (POST /api/status-pages): a first group of 50 with the live monitor first, then
//    groups of 500; the server sends the first groups inline and the rest collapsed, read on demand;
// 3. R loads (default 3) of /status/bench, each in a fresh context: first meaningful content (banner and first group
//    on screen: DOM and next frame, from navigation start), first contentful paint, bytes of API data and of scripts,
//    DOM elements and JS heap once settled; then one collapsed group opened (time to rows, bytes, DOM after);
// 4. C live changes (default 6): the target flips, `POST /api/monitors/:id/check`, time until the page shows it;
// 5. weights: the JS the status page loads (gzip of the files, and what its loads fetched), and the operator app's
//    initial JS+CSS (index.html's script, modulepreloads and stylesheets) and what /login and /dashboard fetch.
// Prints the figures and a final `json` line. Asserts nothing; never fails on a target.
import { createServer } from 'node:http';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { initialWeight } from './lib/bundle-weight.mjs';
import { startServer } from './lib/checker-run.mjs';
import { api, f, log, option, sleep } from './lib/measure.mjs';
import { expandCollapsed, launchChromium, loadStatusPage, openCounted, tally, weight, whenStatus } from './lib/status-browser.mjs';
import { copyMonitors, insertAgents, insertHourly, pageGroups } from './lib/status-seed.mjs';

const require = createRequire(import.meta.url);
const CLIENT_DIR = join(import.meta.dirname, '../client', process.env.BENCH_CLIENT_DIR ?? 'dist');
const MONITORS = Math.max(100, Math.floor(Number(option('monitors', 9000))));
const AGENTS = Math.max(0, Math.floor(Number(option('agents', 1000))));
const HOURLY = Math.min(MONITORS, Math.max(0, Math.floor(Number(option('hourly', 2000)))));
const DAYS = Math.min(90, Math.max(1, Math.floor(Number(option('days', 30)))));
const RUNS = Math.max(1, Math.floor(Number(option('runs', 3))));
const CHANGES = Math.max(2, Math.floor(Number(option('changes', 6))));
const ADMIN_URL = option('postgres', process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const KiB = (bytes) => f(bytes / 1024, 1);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const cleanups = [];
async function cleanup() {
  for (const step of cleanups.splice(0).reverse()) await step().catch((error) => log(`cleanup: ${error.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cleanup().finally(() => process.exit(130)));

/** The live monitor's target: answers 200 or 500 as told. */
async function startTarget() {
  let status = 200;
  const server = createServer((_req, res) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end('bench'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${server.address().port}/`, set: (next) => (status = next) };
}

async function must(response, what, expected = [200, 201]) {
  if (!expected.includes(response.status)) throw new Error(`${what} answered ${response.status}: ${response.text.slice(0, 300)}`);
  return response.json();
}

async function run() {
  const tempDir = mkdtempSync(join(tmpdir(), 'vigil-bench-status-'));
  chmodSync(tempDir, 0o755);
  cleanups.push(async () => rmSync(tempDir, { recursive: true, force: true }));
  const { Client } = require('pg');
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const database = `vigil_bench_status_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${database}`);
  cleanups.push(async () => {
    await admin
      .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      .catch((error) => log(`could not drop ${database}: ${error.message}`));
    await admin.end();
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const env = { DATA_DIR: join(tempDir, 'data'), DATABASE_URL: url.toString(), CLIENT_DIR };
  mkdirSync(env.DATA_DIR);
  const logPath = join(tmpdir(), `vigil-bench-status-${Date.now()}.log`);
  log(`bench:status ${MONITORS} monitors + ${AGENTS} agents + 1 live monitor; ${HOURLY} monitors with ${DAYS} days of hourly aggregates`);
  log(`  server log ${logPath}`);

  const target = await startTarget();
  const server = await startServer(env, logPath);
  cleanups.push(server.stop);
  const { base } = server;
  const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
  await must(await api(base, null, 'POST', '/api/auth/register', credentials), 'register');
  const { token, user } = await must(
    await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password }),
    'login',
  );
  const create = (name, monitorUrl) => api(base, token, 'POST', '/api/monitors', { name, url: monitorUrl, interval: 3600, retries: 0 });
  const live = (await must(await create('bench-live', target.url), 'creating the live monitor')).monitor;
  const template = (await must(await create('bench-template', 'http://127.0.0.1:9/'), 'creating the template monitor')).monitor;
  await must(await api(base, token, 'POST', `/api/monitors/${live.id}/check`), 'first check');

  const db = new Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  cleanups.push(() => db.end());
  let seeded = Date.now();
  const monitorIds = await copyMonitors(db, template.id, MONITORS);
  const agentIds = await insertAgents(db, AGENTS);
  const hourlyRows = await insertHourly(db, monitorIds.slice(0, HOURLY), DAYS);
  seeded = Date.now() - seeded;
  log(`  seeded ${monitorIds.length} monitors, ${agentIds.length} agents, ${hourlyRows} hourly rows in ${f(seeded / 1000, 1)} s`);

  const groups = pageGroups(live.id, monitorIds, agentIds);
  const body = { slug: 'bench', title: 'Bench status', description: 'A large estate', showAgentDetails: true, showResources: true, groups };
  let saveMs = Date.now();
  await must(await api(base, token, 'POST', '/api/status-pages', body), 'creating the page');
  saveMs = Date.now() - saveMs;
  log(`  page with ${groups.length} groups, ${groups.reduce((n, g) => n + g.items.length, 0)} components saved in ${f(saveMs)} ms`);
  // Warm the server's projection once, as any visitor before the measured ones would.
  let firstDataMs = Date.now();
  const first = await api(base, null, 'GET', '/api/status-pages/bench/data');
  firstDataMs = Date.now() - firstDataMs;
  const data = (await must(first, 'the page data')).data;
  const inline = data.groups.filter((group) => group.items !== null);

  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const loads = [];
  let expanded = null;
  let liveRun = null;
  for (let i = 0; i < RUNS; i += 1) {
    const load = await loadStatusPage(browser, `${base}/status/bench`, CLIENT_DIR);
    log(
      `  load ${i + 1}: first content ${f(load.timing.frame)} ms, ${KiB(load.bytes.apiBytes)} KiB API, ${load.domNodes} elements, heap ${f(load.heapMiB, 1)} MiB`,
    );
    if (i === RUNS - 1) {
      expanded = await expandCollapsed(load.counted);
      liveRun = await liveChanges(load.counted.page, live.id, target, base, token);
    }
    await load.counted.close();
    delete load.counted;
    loads.push(load);
  }

  const operator = { initial: initialWeight(CLIENT_DIR, 'index.html') };
  for (const [name, path, session, ready] of [
    ['login', '/login', null, 'input[name="username"]'],
    ['dashboard', '/dashboard', { token, user }, '[data-testid="dashboard-title"]'],
  ]) {
    const counted = await openCounted(browser, { session });
    await counted.page.goto(`${base}${path}`, { waitUntil: 'load' });
    await counted.page.locator(ready).first().waitFor();
    await counted.page.waitForLoadState('networkidle');
    operator[name] = { ...tally(counted.requests(), CLIENT_DIR), ...(await weight(counted.page, counted.cdp)) };
    await counted.close();
  }
  return {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${f(totalmem() / 1024 ** 3, 1)} GiB`,
    date: new Date().toISOString(),
    components: MONITORS + AGENTS + 1,
    groups: { total: data.groups.length, inline: inline.length, inlineComponents: inline.reduce((n, g) => n + g.items.length, 0) },
    seedSeconds: seeded / 1000,
    saveMs,
    firstDataMs,
    dataBytes: first.text.length,
    loads,
    expanded,
    live: liveRun,
    statusBundle: initialWeight(CLIENT_DIR, 'status.html'),
    operator,
    serverLog: logPath,
  };
}

/** Flips the live monitor C times and notes how long after the check call the page shows each new status. */
async function liveChanges(page, id, target, base, token) {
  await page.locator('[data-testid="live-badge"][data-connected="true"]').waitFor();
  const latencies = [];
  let status = 'up';
  for (let i = 0; i < CHANGES; i += 1) {
    status = status === 'up' ? 'down' : 'up';
    target.set(status === 'down' ? 500 : 200);
    const shown = whenStatus(page, `status-monitor-status-${id}`, status);
    await sleep(50);
    const at = Date.now();
    await must(await api(base, token, 'POST', `/api/monitors/${id}/check`), 'a live check');
    latencies.push((await shown) - at);
    await sleep(300);
  }
  return { changes: latencies.length, medianMs: median(latencies), maxMs: Math.max(...latencies), latencies };
}

function print(r) {
  const load = (pick, digits = 0) => `median ${f(median(r.loads.map(pick)), digits)}, max ${f(Math.max(...r.loads.map(pick)), digits)}`;
  const lines = [
    `bench:status on ${r.machine}, ${r.date}`,
    `  page                     ${r.components} components in ${r.groups.total} groups (${r.groups.inline} inline with ${r.groups.inlineComponents} components, the rest collapsed); saved in ${f(r.saveMs)} ms; first data read ${f(r.firstDataMs)} ms, ${KiB(r.dataBytes)} KiB`,
    `  first meaningful content ${load((l) => l.timing.frame)} ms (DOM ${load((l) => l.timing.dom)} ms; first contentful paint ${load((l) => l.timing.fcp ?? NaN)} ms; network idle ${load((l) => l.wallMs)} ms) over ${r.loads.length} loads`,
    `  API data                 ${load((l) => l.bytes.apiBytes / 1024, 1)} KiB in ${r.loads[0].bytes.apiRequests} requests`,
    `  DOM                      ${load((l) => l.domNodes)} elements; JS heap ${load((l) => l.heapMiB, 1)} MiB`,
    `  scripts fetched          ${KiB(r.loads[0].bytes.jsBytes)} KiB as served (${KiB(r.loads[0].bytes.jsGzip)} KiB gzip), CSS ${KiB(r.loads[0].bytes.cssBytes)} KiB (${KiB(r.loads[0].bytes.cssGzip)} KiB gzip)`,
    `  status.html bundle       JS ${KiB(r.statusBundle.jsGzip)} KiB gzip, CSS ${KiB(r.statusBundle.cssGzip)} KiB gzip (${r.statusBundle.files.length} files)`,
    `  open a collapsed group   group ${r.expanded.group}: ${r.expanded.rows} rows in ${f(r.expanded.ms)} ms (the read ${f(r.expanded.apiMs)} ms), ${KiB(r.expanded.apiBytes)} KiB API; then ${r.expanded.domNodes} elements, heap ${f(r.expanded.heapMiB, 1)} MiB`,
    `  live change → page       median ${f(r.live.medianMs)} ms, max ${f(r.live.maxMs)} ms over ${r.live.changes} changes (${r.live.latencies.join(', ')} ms)`,
    `  operator app initial     JS ${KiB(r.operator.initial.jsGzip)} + CSS ${KiB(r.operator.initial.cssGzip)} = ${KiB(r.operator.initial.jsGzip + r.operator.initial.cssGzip)} KiB gzip (index.html's script, modulepreloads, stylesheets)`,
  ];
  for (const name of ['login', 'dashboard']) {
    const o = r.operator[name];
    lines.push(
      `  operator /${name.padEnd(17)}fetched JS ${KiB(o.jsGzip)} + CSS ${KiB(o.cssGzip)} = ${KiB(o.jsGzip + o.cssGzip)} KiB gzip (the language's dictionary included; ${KiB(o.jsBytes + o.cssBytes)} KiB as served); ${o.domNodes} elements, heap ${f(o.heapMiB, 1)} MiB`,
    );
  }
  lines.push(`  server log               ${r.serverLog}`);
  console.log(lines.join('\n'));
  console.log(`json ${JSON.stringify(r)}`);
}

try {
  print(await run());
} catch (error) {
  console.log(`bench:status failed: ${error.stack ?? error.message}`);
} finally {
  await cleanup();
}
process.exit(0);

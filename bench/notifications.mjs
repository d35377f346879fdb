// `npm run bench:notifications [-- --alerts 200 --background 2000 --mode embedded|postgres --warmup 70
//   --retry-base-ms 200 --max-attempts 3 --delay-min-ms 50 --delay-max-ms 500]`
//
// A storm of alerts through five channel types at once, while other monitors keep being checked (issue 28,
// requirement 12). Fakes of five services answer on 127.0.0.1 (plain node:http), each after a random 50–500 ms:
// webhook, slack (an incoming-webhook URL), telegram (through TELEGRAM_API_URL), resend (through RESEND_API_URL) and
// dingtalk (a robot URL). Slack is the failing one: it answers 503 to every attempt of the messages of even-numbered
// storm monitors (given up after NOTIFICATION_MAX_ATTEMPTS) and to the first attempt of the odd-numbered ones (sent on
// the second), so both retries that succeed and give-ups show.
//
// The server (built: `npm run build -w proto && npm run build -w server`) runs on the embedded PostgreSQL (default) or
// on a fresh database of the PostgreSQL at 127.0.0.1:5432 (`--mode postgres`, dropped after). The bench creates A
// storm monitors (HTTP, 60 s, no retries) against a loopback target it controls, and B background monitors (HTTP,
// 60 s) against a keep-alive target in its own process that records every arrival (bench/lib/checker-target.mjs);
// then five channels, one per type, all on the global monitor settings (down alerts only). After a warm-up (and until
// the server's RSS is back within 60 MiB of its idle RSS, at most 2 min), a window of one interval measures the
// background checks' lateness before the storm. Then the storm target answers 503 and
// every storm monitor is checked at once (POST /api/monitors/:id/check, as "check now" does), so A monitors go down
// together: A alerts × 5 channels = 5·A deliveries (1,000 at the default 200), each one outbox row.
//
// Figures (printed, never judged; the exit code is non-zero only for a broken run: monitors not created, deliveries
// missing or unaccounted for, the server gone):
// - time to deliver all: from the flip to the last final answer at the fakes (a 2xx, or the last attempt's 503), and
//   to the server counting every row sent or given up (`vigil_notifications_delivered_total` +
//   `vigil_notifications_failed_total` deltas reaching 5·A with `vigil_notifications_pending` 0, polled every 500 ms);
//   per channel, p50/p99/max of flip → that delivery's final answer.
// - attempts: `vigil_notifications_delivered_total` + `vigil_notification_attempts_failed_total` deltas; retries are
//   failed attempts that were not the last (failed attempts − given up); cross-checked against the requests each fake
//   received and against GET /api/notifications/history (totals by status, per channel).
// - check lateness of the background monitors, before (one interval) and during the storm (from the flip, whole
//   intervals until every delivery is final): arrival at the target − the slot the server scheduled it on (as
//   bench:checker), missed and extra checks per monitor; the server's own slot-wait histogram
//   (`vigil_check_slot_wait_ms`) over the same windows; event-loop delay p99 (each 500 ms read of /api/metrics).
// - server CPU (100 % = one core) and RSS (VmRSS; the whole tree's RSS sum and PSS in embedded mode) in both windows.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseArrivals, startServer, startTarget } from './lib/checker-run.mjs';
import {
  api,
  cpuSeconds,
  f,
  histogramWindow,
  log,
  metrics,
  option,
  otherTestRunners,
  percentile,
  postgresCpu,
  rssMiB,
  sleep,
  treeCpuSeconds,
  treeMemoryMiB,
} from './lib/measure.mjs';

const require = createRequire(import.meta.url);

const ALERTS = Math.max(2, Math.floor(Number(option('alerts', 200))));
const BACKGROUND = Math.max(1, Math.floor(Number(option('background', 2000))));
const MODE = option('mode', 'embedded');
const WARMUP_S = Math.max(0, Number(option('warmup', 70)));
const RETRY_BASE_MS = Math.max(100, Number(option('retry-base-ms', 200)));
const MAX_ATTEMPTS = Math.max(2, Math.floor(Number(option('max-attempts', 3))));
const DELAY_MIN_MS = Math.max(0, Number(option('delay-min-ms', 50)));
const DELAY_MAX_MS = Math.max(DELAY_MIN_MS, Number(option('delay-max-ms', 500)));
const CREATE_CONCURRENCY = 32;
/** After the warm-up, wait (at most SETTLE_MAX_MS) until the server's RSS is within this of its idle RSS. */
const SETTLE_MIB = 60;
const SETTLE_MAX_MS = 120_000;
const ADMIN_URL = option('postgres', process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const INTERVAL_S = 60;
const INTERVAL_MS = INTERVAL_S * 1000;
const POLL_MS = 500;
/** A storm not final this long after the flip is a broken run. */
const STORM_LIMIT_MS = 10 * 60_000;
const TYPES = ['webhook', 'slack', 'telegram', 'resend', 'dingtalk'];
const FAILING = 'slack';
const DELIVERIES = ALERTS * TYPES.length;
if (!['embedded', 'postgres'].includes(MODE)) {
  console.error('--mode must be embedded or postgres');
  process.exit(2);
}

/** The storm monitors' target: 200 until `down` is set, then 503. */
async function startStormTarget() {
  let down = false;
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(down ? 503 : 200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
  });
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    flip: () => (down = true),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

/**
 * One fake service: answers every POST after a random DELAY_MIN_MS–DELAY_MAX_MS with `answer(index, attempt)` (index:
 * the storm monitor the message names; attempt: how many times this fake has seen that message, from 1), and keeps,
 * per message, its attempts and when its final answer went out (a 2xx, or a failure the server will not retry).
 */
async function startFake(type, answer) {
  const messages = new Map();
  const stats = { requests: 0, unkeyed: 0, statuses: {} };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      stats.requests += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      const match = /storm (\d+)/.exec(body);
      const delay = DELAY_MIN_MS + Math.random() * (DELAY_MAX_MS - DELAY_MIN_MS);
      if (!match) {
        stats.unkeyed += 1;
        await sleep(delay);
        return res.writeHead(400).end();
      }
      const index = Number(match[1]);
      const message = messages.get(index) ?? { attempts: 0, finalAt: null, ok: null };
      messages.set(index, message);
      message.attempts += 1;
      const reply = answer(index, message.attempts);
      await sleep(delay);
      stats.statuses[reply.status] = (stats.statuses[reply.status] ?? 0) + 1;
      const ok = reply.status >= 200 && reply.status < 300;
      if (ok || message.attempts >= MAX_ATTEMPTS) {
        message.finalAt = Date.now();
        message.ok = ok;
      }
      res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' }).end(reply.body);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { type, base, messages, stats, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) };
}

const json = (value) => ({ status: 200, body: JSON.stringify(value) });

async function startFakes() {
  const fakes = {
    webhook: await startFake('webhook', () => json({ ok: true })),
    // Even-numbered monitors' messages fail every attempt (given up); odd-numbered ones fail the first attempt only.
    slack: await startFake('slack', (index, attempt) =>
      index % 2 === 0 || attempt === 1
        ? { status: 503, type: 'text/plain', body: 'service_unavailable' }
        : { status: 200, type: 'text/plain', body: 'ok' },
    ),
    telegram: await startFake('telegram', (index) => json({ ok: true, result: { message_id: index } })),
    resend: await startFake('resend', (index) => json({ id: `bench-${index}` })),
    dingtalk: await startFake('dingtalk', () => json({ errcode: 0, errmsg: 'ok' })),
  };
  const configs = {
    webhook: { url: `${fakes.webhook.base}/hooks/vigil` },
    slack: { webhookUrl: `${fakes.slack.base}/services/T000/B000/bench` },
    telegram: { botToken: '123456789:AAFbenchbenchbenchbenchbenchbench0', chatId: '-1001234567890' },
    resend: { apiKey: 're_bench', from: 'Vigil <alerts@example.com>', to: ['ops@example.com'] },
    dingtalk: { webhookUrl: `${fakes.dingtalk.base}/robot/send?access_token=bench` },
  };
  return { fakes, configs };
}

/** Expected final outcome per channel: every message sent, but the failing fake's even-numbered ones given up. */
function expectedOf(type) {
  if (type !== FAILING) return { sent: ALERTS, failed: 0, requests: ALERTS };
  const failed = Math.ceil(ALERTS / 2);
  const sent = ALERTS - failed;
  return { sent, failed, requests: failed * MAX_ATTEMPTS + sent * 2 };
}

async function createMonitors(base, token, bodies) {
  const ids = new Array(bodies.length);
  const failures = [];
  let next = 0;
  const started = Date.now();
  async function worker() {
    while (next < bodies.length) {
      const index = next;
      next += 1;
      const response = await api(base, token, 'POST', '/api/monitors', bodies[index]);
      if (response.status === 201) ids[index] = response.json().monitor.id;
      else failures.push(`${index}: ${response.status} ${response.text.slice(0, 200)}`);
    }
  }
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  return { ids, failures, seconds: (Date.now() - started) / 1000, startedAt: started, endedAt: Date.now() };
}

async function routeToChannels(base, token, configs) {
  const channels = {};
  for (const type of TYPES) {
    const created = await api(base, token, 'POST', '/api/notifications/channels', {
      name: `bench ${type}`,
      type,
      language: 'en-US',
      config: configs[type],
    });
    if (created.status !== 201) throw new Error(`${type} channel: ${created.status} ${created.text.slice(0, 300)}`);
    channels[type] = created.json().data.id;
  }
  const saved = await api(base, token, 'POST', '/api/notifications/settings', {
    target_type: 'global-monitor',
    enabled: true,
    on_down: true,
    on_recovery: false,
    channels: JSON.stringify(Object.values(channels)),
  });
  if (saved.status !== 200) throw new Error(`settings: ${saved.status} ${saved.text.slice(0, 300)}`);
  return channels;
}

/** Reads /api/metrics every POLL_MS until `until()` says stop; keeps each read with RSS and the tree's memory. */
async function sampleWindow(base, token, pid, until) {
  const reads = [];
  const memory = [];
  const load = [];
  let busy = 0;
  let samples = 0;
  for (;;) {
    const m = await metrics(base, token);
    m.at = Date.now();
    reads.push(m);
    memory.push({ rss: rssMiB(pid), tree: treeMemoryMiB(pid) });
    load.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    samples += 1;
    if (samples % 10 === 1 && otherTestRunners() > 0) busy += 1;
    if (until(m)) break;
    await sleep(POLL_MS);
  }
  return { reads, memory, load, busySamples: busy, checkedSamples: Math.ceil(samples / 10) };
}

function windowFigures({ name, from, to, reads, memory, cpu, arrivals, backgroundIds, createdFrom }) {
  const first = reads[0];
  const last = reads[reads.length - 1];
  const a = analyseArrivals(arrivals, backgroundIds, from, to, createdFrom, INTERVAL_MS);
  const loop = reads
    .slice(1)
    .map((m) => m.vigil_event_loop_delay_p99_ms)
    .sort((x, y) => x - y);
  return {
    name,
    seconds: (to - from) / 1000,
    lateness: { samples: a.onSlots, p50: a.p50, p99: a.p99, p999: a.p999, max: a.max },
    perMonitor: { expected: a.slotsPerMonitor, min: a.min, max: a.maxPerMonitor, missed: a.missed, extra: a.extra, offSlot: a.offSlot },
    slotWait: histogramWindow(first, last, 'vigil_check_slot_wait_ms'),
    eventLoopP99: { median: percentile(loop, 0.5), max: loop[loop.length - 1] },
    checksStarted: last.vigil_checks_started_total - first.vigil_checks_started_total,
    cpu,
    rss: {
      max: Math.max(...memory.map((x) => x.rss)),
      treeRssMax: Math.max(...memory.map((x) => x.tree.rss)),
      treePssMax: Math.max(...memory.map((x) => x.tree.pss)),
    },
  };
}

async function history(base, token, query) {
  const response = await api(base, token, 'GET', `/api/notifications/history?pageSize=1&${query}`);
  if (response.status !== 200) throw new Error(`history ${query}: ${response.status} ${response.text.slice(0, 200)}`);
  return response.json().total;
}

async function run() {
  const stamp = `${MODE}-${Date.now()}`;
  const logPath = join(tmpdir(), `vigil-bench-notifications-${stamp}.log`);
  const env = {
    NOTIFICATION_RETRY_BASE_MS: String(RETRY_BASE_MS),
    NOTIFICATION_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  };
  let database = null;
  let adminClient = null;
  if (MODE === 'postgres') {
    const { Client } = require('pg');
    adminClient = new Client({ connectionString: ADMIN_URL });
    await adminClient.connect();
    database = `vigil_bench_notifications_${process.pid}_${Date.now()}`;
    await adminClient.query(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-notifications-'));
  // As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the folder.
  if (MODE === 'embedded') chmodSync(dataDir, 0o755);
  env.DATA_DIR = dataDir;
  const { fakes, configs } = await startFakes();
  env.TELEGRAM_API_URL = fakes.telegram.base;
  env.RESEND_API_URL = fakes.resend.base;
  const storm = await startStormTarget();
  const target = await startTarget();
  let server = null;
  log(`server log ${logPath}`);
  try {
    server = await startServer(env, logPath);
    const { base } = server;
    const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
    const registered = await api(base, null, 'POST', '/api/auth/register', credentials);
    if (registered.status >= 300) throw new Error(`register answered ${registered.status}: ${registered.text}`);
    const login = await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password });
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
    const { token } = login.json();
    const idleRss = rssMiB(server.pid);

    log(`creating ${BACKGROUND} background and ${ALERTS} storm monitors`);
    const common = { interval: INTERVAL_S, timeout: 10, expectedStatus: 200, retries: 0 };
    const bodies = [
      ...Array.from({ length: BACKGROUND }, (_, i) => ({ ...common, name: `bench ${i}`, url: `http://127.0.0.1:${target.port}/m/${i}` })),
      ...Array.from({ length: ALERTS }, (_, i) => ({ ...common, name: `storm ${i}`, url: `http://127.0.0.1:${storm.port}/s/${i}` })),
    ];
    const created = await createMonitors(base, token, bodies);
    const backgroundIds = created.ids.slice(0, BACKGROUND);
    const stormIds = created.ids.slice(BACKGROUND);
    log(`created in ${f(created.seconds, 1)} s, ${created.failures.length} failed`);
    if (created.failures.length) throw new Error(`monitors not created: ${created.failures.slice(0, 3).join('; ')}`);
    const channels = await routeToChannels(base, token, configs);
    log(`channels ${JSON.stringify(channels)}; warm-up ${WARMUP_S} s`);
    await sleep(Math.max(0, created.endedAt + WARMUP_S * 1000 - Date.now()));
    // As bench:checker: the collection of what creating the monitors left behind is not part of either window.
    const settleFrom = Date.now();
    while (rssMiB(server.pid) > idleRss + SETTLE_MIB && Date.now() - settleFrom < SETTLE_MAX_MS) await sleep(5000);
    const settleSeconds = Math.round((Date.now() - settleFrom) / 1000);
    if (settleSeconds) log(`waited ${settleSeconds} s more for the post-creation collection`);

    // Before the storm: one interval of background checks.
    const beforeFrom = Date.now();
    const cpuBefore0 = { server: cpuSeconds(server.pid), tree: treeCpuSeconds(server.pid), postgres: postgresCpu() };
    log('window before the storm (one interval)');
    const before = await sampleWindow(base, token, server.pid, () => Date.now() >= beforeFrom + INTERVAL_MS - POLL_MS);
    await sleep(Math.max(0, beforeFrom + INTERVAL_MS - Date.now()));
    const flipAt = Date.now();
    const cpuBefore1 = { server: cpuSeconds(server.pid), tree: treeCpuSeconds(server.pid), postgres: postgresCpu() };
    const base0 = before.reads[before.reads.length - 1];

    // The storm: the target fails and every storm monitor is checked at once.
    storm.flip();
    log(`storm: ${ALERTS} monitors down at once, ${DELIVERIES} deliveries`);
    const checkNow = (async () => {
      const statuses = {};
      let next = 0;
      const worker = async () => {
        while (next < stormIds.length) {
          const id = stormIds[next++];
          const answer = await api(base, token, 'POST', `/api/monitors/${id}/check`);
          const key = answer.status === 200 ? answer.json().check.status : `HTTP ${answer.status}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
      return { statuses, ms: Date.now() - flipAt };
    })();
    let serverDoneAt = null;
    const delta = (m, name) => m[name] - base0[name];
    const during = await sampleWindow(base, token, server.pid, (m) => {
      const final = delta(m, 'vigil_notifications_delivered_total') + delta(m, 'vigil_notifications_failed_total');
      if (serverDoneAt === null && final >= DELIVERIES && m.vigil_notifications_pending === 0) serverDoneAt = m.at;
      if (m.at - flipAt > STORM_LIMIT_MS) return true;
      // The lateness window runs whole intervals from the flip, until every delivery is final.
      return serverDoneAt !== null && m.at >= flipAt + Math.ceil((serverDoneAt - flipAt) / INTERVAL_MS) * INTERVAL_MS - POLL_MS;
    });
    const checked = await checkNow;
    const windowIntervals = Math.max(1, Math.ceil(((serverDoneAt ?? Date.now()) - flipAt) / INTERVAL_MS));
    await sleep(Math.max(0, flipAt + windowIntervals * INTERVAL_MS - Date.now()));
    const stormTo = flipAt + windowIntervals * INTERVAL_MS;
    const cpuDuring1 = { server: cpuSeconds(server.pid), tree: treeCpuSeconds(server.pid), postgres: postgresCpu() };
    if (server.exited()) throw new Error(`server exited during the run; see ${logPath}`);
    // Checks in flight at the window's end reach the target within a few seconds.
    await sleep(3000);
    const arrivals = await target.ask('arrivals');
    const last = during.reads[during.reads.length - 1];

    const cpuOf = (c0, c1, seconds) => ({
      server: ((c1.server - c0.server) / seconds) * 100,
      tree: ((c1.tree - c0.tree) / seconds) * 100,
      postgres: MODE === 'postgres' ? ((c1.postgres - c0.postgres) / seconds) * 100 : null,
    });
    const beforeFigures = windowFigures({
      name: 'before',
      from: beforeFrom,
      to: flipAt,
      ...before,
      cpu: cpuOf(cpuBefore0, cpuBefore1, (flipAt - beforeFrom) / 1000),
      arrivals,
      backgroundIds,
      createdFrom: created.startedAt,
    });
    const duringFigures = windowFigures({
      name: 'during',
      from: flipAt,
      to: stormTo,
      reads: [base0, ...during.reads],
      memory: during.memory,
      cpu: cpuOf(cpuBefore1, cpuDuring1, (stormTo - flipAt) / 1000),
      arrivals,
      backgroundIds,
      createdFrom: created.startedAt,
    });

    const perChannel = {};
    let fakesFinalAt = 0;
    for (const type of TYPES) {
      const fake = fakes[type];
      const finals = [...fake.messages.values()].filter((m) => m.finalAt !== null);
      const times = finals.map((m) => m.finalAt - flipAt).sort((x, y) => x - y);
      fakesFinalAt = Math.max(fakesFinalAt, ...finals.map((m) => m.finalAt));
      const channel = channels[type];
      perChannel[type] = {
        requests: fake.stats.requests,
        unkeyed: fake.stats.unkeyed,
        statuses: fake.stats.statuses,
        messages: fake.messages.size,
        finalOk: finals.filter((m) => m.ok).length,
        finalFailed: finals.filter((m) => !m.ok).length,
        notFinal: fake.messages.size - finals.length,
        msToFinal: { p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: times[times.length - 1] },
        history: {
          sent: await history(base, token, `channel_id=${channel}&status=sent`),
          failed: await history(base, token, `channel_id=${channel}&status=failed`),
          pending: await history(base, token, `channel_id=${channel}&status=pending`),
        },
        expected: expectedOf(type),
      };
    }
    const counters = {
      delivered: delta(last, 'vigil_notifications_delivered_total'),
      failedAttempts: delta(last, 'vigil_notification_attempts_failed_total'),
      givenUp: delta(last, 'vigil_notifications_failed_total'),
      pending: last.vigil_notifications_pending,
    };
    return {
      mode: MODE,
      otherWork:
        `other test runners in ${before.busySamples + during.busySamples}/${before.checkedSamples + during.checkedSamples} samples, ` +
        `load average ${Math.min(...before.load, ...during.load)}–${Math.max(...before.load, ...during.load)}`,
      created: { monitors: created.ids.length, seconds: created.seconds },
      settleSeconds,
      checkNow: checked,
      serverDoneMs: serverDoneAt === null ? null : serverDoneAt - flipAt,
      fakesDoneMs: fakesFinalAt ? fakesFinalAt - flipAt : null,
      counters,
      perChannel,
      before: beforeFigures,
      during: duringFigures,
      serverLog: logPath,
    };
  } finally {
    if (server) await server.stop();
    await target.stop();
    await storm.close();
    for (const fake of Object.values(fakes)) await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (adminClient) {
      await adminClient
        .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
        .catch((error) => log(`could not drop ${database}: ${error.message}`));
      await adminClient.end();
    }
  }
}

/** What makes the run broken (deliveries missing or unaccounted for), as opposed to slow. */
function problemsOf(r) {
  const problems = [];
  if (r.serverDoneMs === null) problems.push(`not every delivery was final ${STORM_LIMIT_MS / 60_000} min after the flip`);
  if (r.checkNow.statuses.down !== ALERTS) problems.push(`check now: ${JSON.stringify(r.checkNow.statuses)}, expected ${ALERTS} down`);
  const sent = TYPES.reduce((sum, type) => sum + r.perChannel[type].expected.sent, 0);
  const failed = DELIVERIES - sent;
  if (r.counters.delivered !== sent || r.counters.givenUp !== failed) {
    problems.push(`server counted ${r.counters.delivered} sent and ${r.counters.givenUp} given up, expected ${sent} and ${failed}`);
  }
  for (const type of TYPES) {
    const c = r.perChannel[type];
    if (c.messages !== ALERTS || c.unkeyed)
      problems.push(`${type}: ${c.messages} distinct messages at the fake (${c.unkeyed} unrecognised), expected ${ALERTS}`);
    if (c.history.sent !== c.expected.sent || c.history.failed !== c.expected.failed || c.history.pending) {
      problems.push(`${type}: history ${JSON.stringify(c.history)}, expected sent ${c.expected.sent}, failed ${c.expected.failed}`);
    }
  }
  return problems;
}

function print(r) {
  const attempts = r.counters.delivered + r.counters.failedAttempts;
  const doneS = r.serverDoneMs / 1000;
  const lines = [
    `bench:notifications (${r.mode}): ${ALERTS} storm monitors down at once × ${TYPES.length} channels = ${DELIVERIES} deliveries; ` +
      `${BACKGROUND} background monitors at ${INTERVAL_S} s; fakes answer after ${DELAY_MIN_MS}–${DELAY_MAX_MS} ms; ` +
      `NOTIFICATION_RETRY_BASE_MS=${RETRY_BASE_MS}, NOTIFICATION_MAX_ATTEMPTS=${MAX_ATTEMPTS}; ${r.otherWork}`,
    `  monitors created          ${r.created.monitors} in ${f(r.created.seconds, 1)} s; warm-up ${WARMUP_S} s + ${r.settleSeconds} s settling`,
    `  check now of the storm    ${JSON.stringify(r.checkNow.statuses)} answered within ${f(r.checkNow.ms / 1000, 1)} s of the flip`,
    `  all deliveries final      ${f(doneS, 1)} s after the flip (server counters, 500 ms polls); last final answer at the fakes ${f(r.fakesDoneMs / 1000, 1)} s`,
    `  throughput                ${f(DELIVERIES / doneS, 1)} deliveries/s, ${f(attempts / doneS, 1)} attempts/s`,
    `  attempts                  ${attempts}: ${r.counters.delivered} sent, ${r.counters.failedAttempts} failed (${r.counters.failedAttempts - r.counters.givenUp} retried, ${r.counters.givenUp} given up); pending at the end ${r.counters.pending}`,
    `  per channel (fake)        requests / distinct messages / 2xx final / failed final · history sent / failed · flip → final p50 / p99 / max`,
    ...TYPES.map((type) => {
      const c = r.perChannel[type];
      return (
        `    ${type.padEnd(9)}${type === FAILING ? '*' : ' '}            ${c.requests} / ${c.messages} / ${c.finalOk} / ${c.finalFailed} · ${c.history.sent} / ${c.history.failed} · ` +
        `${f(c.msToFinal.p50 / 1000, 1)} / ${f(c.msToFinal.p99 / 1000, 1)} / ${f(c.msToFinal.max / 1000, 1)} s (answers ${JSON.stringify(c.statuses)})`
      );
    }),
    `    * ${FAILING} answers 503 to every attempt of even-numbered monitors' messages and to the first of the odd ones`,
    `  background checks         before the storm (${f(r.before.seconds)} s) → during it (${f(r.during.seconds)} s from the flip)`,
  ];
  const pair = (label, of) => `    ${label.padEnd(22)}${of(r.before)} → ${of(r.during)}`;
  lines.push(
    pair('lateness p50/p99/max', (w) => `${f(w.lateness.p50)} / ${f(w.lateness.p99)} / ${f(w.lateness.max)} ms (${w.lateness.samples})`),
    pair(
      'missed / extra',
      (w) =>
        `${w.perMonitor.missed} / ${w.perMonitor.extra} (per monitor ${w.perMonitor.min}–${w.perMonitor.max} of ${w.perMonitor.expected})`,
    ),
    pair('slot wait p50/p99', (w) => (w.slotWait ? `${f(w.slotWait.p50, 1)} / ${f(w.slotWait.p99, 1)} ms (${w.slotWait.count})` : '-')),
    pair('event-loop p99', (w) => `median ${f(w.eventLoopP99.median, 1)}, max ${f(w.eventLoopP99.max, 1)} ms`),
    pair(
      'server CPU',
      (w) =>
        `${f(w.cpu.server, 1)} %${w.cpu.postgres === null ? ` (tree ${f(w.cpu.tree, 1)} %)` : ` (+ PostgreSQL ${f(w.cpu.postgres, 1)} %)`}`,
    ),
    pair('server RSS max', (w) => `${f(w.rss.max)} MiB (tree ${f(w.rss.treeRssMax)} / PSS ${f(w.rss.treePssMax)} MiB)`),
  );
  lines.push(`  server log                ${r.serverLog} (${warnings(r.serverLog)})`);
  console.log(lines.join('\n'));
  console.log(JSON.stringify(r));
}

function warnings(path) {
  try {
    const lines = readFileSync(path, 'utf8').split('\n');
    const failedAttempts = lines.filter((line) => /attempt \d+ failed/.test(line)).length;
    // Expected: the note that the embedded PostgreSQL runs as another user under root, and its backends ending at shutdown.
    const other = lines.filter(
      (line) =>
        /error|warn|exception/i.test(line) &&
        !/attempt \d+ failed|runs as root|terminating connection due to administrator command/.test(line),
    );
    return `${failedAttempts} failed-attempt warnings, ${other.length} other warnings or errors${other.length ? `: ${other[0].slice(0, 200)}` : ''}`;
  } catch {
    return 'unreadable';
  }
}

log(`bench:notifications: ${ALERTS} alerts × ${TYPES.length} channels, ${BACKGROUND} background monitors, ${MODE}`);
try {
  const result = await run();
  print(result);
  const problems = problemsOf(result);
  for (const problem of problems) console.log(`broken run: ${problem}`);
  process.exitCode = problems.length ? 1 : 0;
} catch (error) {
  console.log(`run failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
}

// `npm run bench:alerts [-- --per-case 40 --storm 500 --background 1000 --warmup 70 --ttk-grouping 0:0]` (issue 29, requirements 10 and 14)
//
// The built server (`server/dist`, or BENCH_SERVER_DIST) on a fresh database of the PostgreSQL at 127.0.0.1:5432
// (dropped after), webhook channels to a loopback fake in this process, HTTP monitors against a loopback target that
// answers 200 on each monitor's path until the bench makes that path answer 503 (the target failing).
//
// 1. Time to know: monitors at 20 s and 60 s intervals with 0 and 1 retries (retry interval 20 s, timeout 5 s), one
//    webhook channel. Each monitor's path fails at a random moment within one interval (so failures fall anywhere in
//    the rhythm); the figure is the time from that moment to the first message at the fake naming the monitor,
//    p50/p99/max per case. Whatever the server adds (its channel grouping wait included) is in it; `--ttk-grouping
//    W:I` gives that channel (channel 0, also in the storm) group_wait W s and group_interval I s.
// 2. Storm: five webhook channels on the global monitor settings; `--storm` monitors (20 s, no retries) fail at once.
//    Printed: messages per channel and monitors each named, time from the first transition (the server's down count
//    rising, polled every 250 ms) to the last message, and the background monitors' check lateness (60 s interval, in
//    the keep-alive target process, as bench:checker: arrival − slot) in one interval before the storm and in whole
//    intervals from the flip until the last message.
// Prints figures; asserts nothing.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMonitors, latenessLine } from './lib/bench-monitors.mjs';
import { analyseArrivals, startServer, startTarget } from './lib/checker-run.mjs';
import { api, f, log, option, percentile, sleep } from './lib/measure.mjs';

const require = createRequire(import.meta.url);
const PER_CASE = Math.max(1, Math.floor(Number(option('per-case', 40))));
const STORM = Math.max(1, Math.floor(Number(option('storm', 500))));
const BACKGROUND = Math.max(0, Math.floor(Number(option('background', 1000))));
const WARMUP_S = Math.max(0, Number(option('warmup', 70)));
/** Channel 0's grouping (`--ttk-grouping WAIT:INTERVAL` seconds): left out, the server's defaults. */
const TTK_GROUPING = option('ttk-grouping', null)?.split(':').map(Number) ?? null;
const ADMIN_URL = option('postgres', process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const CASES = [
  { interval: 20, retries: 0 },
  { interval: 20, retries: 1 },
  { interval: 60, retries: 0 },
  { interval: 60, retries: 1 },
];
const RETRY_INTERVAL_S = 20;
const BACKGROUND_INTERVAL_MS = 60_000;
const CHANNELS = 5;
/** A storm is over when no message came for this long (twice the default group interval and a margin). */
const QUIET_MS = 130_000;
const STORM_DEADLINE_MS = 5 * 60_000;

/** The monitors' target: 200 on every path until `fail(path)`, then 503. */
async function startFlipTarget() {
  const failing = new Set();
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(failing.has(req.url) ? 503 : 200, { 'content-length': '2' }).end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    fail: (path) => failing.add(path),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The webhook fake: every message per channel path, with the monitor tokens (`[m<n>]`) it names. */
async function startSink() {
  const messages = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const text = Buffer.concat(chunks).toString('utf8');
      messages.push({
        at,
        channel: Number(/\/hook\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1),
        tokens: [...new Set(text.match(/\[m\d+\]/g) ?? [])],
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}`, messages, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function channelsTo(base, token, sink) {
  const ids = [];
  for (let i = 0; i < CHANNELS; i += 1) {
    const created = await api(base, token, 'POST', '/api/notifications/channels', {
      name: `bench sink ${i}`,
      type: 'webhook',
      config: JSON.stringify({ url: `${sink.base}/hook/${i}` }),
      ...(i === 0 && TTK_GROUPING ? { groupWaitSeconds: TTK_GROUPING[0], groupIntervalSeconds: TTK_GROUPING[1] } : {}),
    });
    if (created.status !== 201) throw new Error(`channel create answered ${created.status}: ${created.text}`);
    ids.push(created.json().data.id);
  }
  return ids;
}

async function routeTo(base, token, channels) {
  const body = { target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: false, channels: JSON.stringify(channels) };
  const saved = await api(base, token, 'POST', '/api/notifications/settings', body);
  if (saved.status !== 200) throw new Error(`settings answered ${saved.status}: ${saved.text}`);
}

async function downCount(base, token) {
  const response = await api(base, token, 'GET', '/api/monitors?pageSize=1');
  return response.status === 200 ? response.json().counts.down : -1;
}

async function timeToKnow({ base, token, flip, sink, monitors }) {
  const started = Date.now();
  const failAt = new Map();
  for (const m of monitors) {
    setTimeout(
      () => {
        flip.fail(m.path);
        failAt.set(m.token, Date.now());
      },
      Math.random() * m.interval * 1000,
    );
  }
  const deadline = started + (60 + 2 * 60 + RETRY_INTERVAL_S + 30) * 1000;
  const firstOf = () => {
    const first = new Map();
    for (const message of sink.messages) for (const t of message.tokens) if (!first.has(t)) first.set(t, message.at);
    return first;
  };
  while (Date.now() < deadline && firstOf().size < monitors.length) await sleep(1000);
  const first = firstOf();
  for (const m of monitors) await api(base, token, 'POST', `/api/monitors/${m.id}/pause`);
  return CASES.map((c) => {
    const mine = monitors.filter((m) => m.interval === c.interval && m.retries === c.retries);
    const times = mine.filter((m) => first.has(m.token) && failAt.has(m.token)).map((m) => first.get(m.token) - failAt.get(m.token));
    times.sort((a, b) => a - b);
    return {
      ...c,
      monitors: mine.length,
      messaged: times.length,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      max: times.at(-1),
    };
  });
}

async function storm({ base, token, flip, sink, monitors, channels }) {
  await routeTo(base, token, channels);
  const before = sink.messages.length;
  const baseline = await downCount(base, token);
  const flipAt = Date.now();
  for (const m of monitors) flip.fail(m.path);
  let firstTransition = null;
  const deadline = flipAt + STORM_DEADLINE_MS;
  for (;;) {
    if (firstTransition === null && (await downCount(base, token)) > baseline) firstTransition = Date.now();
    const last = sink.messages.at(-1)?.at ?? flipAt;
    if (Date.now() > deadline || (sink.messages.length > before && Date.now() - last > QUIET_MS)) break;
    await sleep(250);
  }
  const messages = sink.messages.slice(before);
  const perChannel = Array.from({ length: CHANNELS }, (_, channel) => {
    const mine = messages.filter((m) => m.channel === channel);
    const named = new Set(mine.flatMap((m) => m.tokens));
    return { messages: mine.length, named: monitors.filter((m) => named.has(m.token)).length, lastAt: mine.at(-1)?.at ?? null };
  });
  const lastMessage = Math.max(...perChannel.map((c) => c.lastAt ?? 0));
  return {
    flipAt,
    firstTransition,
    firstMessage: messages[0]?.at ?? null,
    lastMessage: lastMessage || null,
    perChannel,
    monitors: monitors.length,
  };
}

async function main() {
  const { Client } = require('pg');
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const database = `vigil_bench_alerts_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-alerts-'));
  const logPath = join(tmpdir(), `vigil-bench-alerts-${Date.now()}.log`);
  const [flip, sink, background] = await Promise.all([startFlipTarget(), startSink(), startTarget()]);
  let server = null;
  try {
    server = await startServer({ DATABASE_URL: url.toString(), DATA_DIR: dataDir }, logPath);
    const { base } = server;
    log(`server log ${logPath}`);
    const credentials = { username: 'benchadmin', password: 'bench-password-1', email: 'bench@example.com' };
    await api(base, null, 'POST', '/api/auth/register', credentials);
    const { token } = (
      await api(base, null, 'POST', '/api/auth/login', { username: credentials.username, password: credentials.password })
    ).json();
    const channels = await channelsTo(base, token, sink);
    await routeTo(base, token, channels.slice(0, 1));

    let n = 0;
    const spec = (interval, retries, kind) => {
      n += 1;
      return { token: `[m${n}]`, path: `/${kind}/${n}`, interval, retries };
    };
    const ttk = CASES.flatMap((c) =>
      Array.from({ length: c.interval === 60 ? Math.ceil(PER_CASE / 2) : PER_CASE }, () => spec(c.interval, c.retries, 'ttk')),
    );
    const stormSpecs = Array.from({ length: STORM }, () => spec(20, 0, 'storm'));
    const bodyOf = (m) => ({
      name: `alert bench ${m.token}`,
      url: `${flip.url}${m.path}`,
      interval: m.interval,
      timeout: 5,
      retries: m.retries,
      retryInterval: RETRY_INTERVAL_S,
    });
    log(`creating ${ttk.length} time-to-know, ${STORM} storm and ${BACKGROUND} background monitors`);
    const created = await createMonitors(base, token, [...ttk, ...stormSpecs].map(bodyOf));
    [...ttk, ...stormSpecs].forEach((m, i) => (m.id = created.ids[i]));
    const backgroundIds = (
      await createMonitors(
        base,
        token,
        Array.from({ length: BACKGROUND }, (_, i) => ({
          name: `background ${i}`,
          url: `http://127.0.0.1:${background.port}/m/${i}`,
          interval: 60,
          timeout: 10,
        })),
      )
    ).ids;
    const createdAt = Date.now();
    log(`created (${created.failures} refused); warm-up ${WARMUP_S} s, then one interval without a storm`);
    await sleep(WARMUP_S * 1000);
    const quietFrom = Date.now();
    await sleep(BACKGROUND_INTERVAL_MS);
    const quietTo = Date.now();

    log('time to know: failing each monitor at a random moment within its interval');
    const cases = await timeToKnow({ base, token, flip, sink, monitors: ttk });
    log(`storm: ${STORM} monitors fail at once, ${CHANNELS} channels`);
    const s = await storm({ base, token, flip, sink, monitors: stormSpecs, channels });
    const stormTo =
      s.flipAt + Math.max(1, Math.ceil(((s.lastMessage ?? s.flipAt) - s.flipAt) / BACKGROUND_INTERVAL_MS)) * BACKGROUND_INTERVAL_MS;
    while (Date.now() < stormTo + 3000) await sleep(1000);
    const arrivals = await background.ask('arrivals');
    const quiet = analyseArrivals(arrivals, backgroundIds, quietFrom, quietTo, createdAt, BACKGROUND_INTERVAL_MS);
    const during = analyseArrivals(arrivals, backgroundIds, s.flipAt, stormTo, createdAt, BACKGROUND_INTERVAL_MS);

    const grouping = TTK_GROUPING ? `group wait ${TTK_GROUPING[0]} s, interval ${TTK_GROUPING[1]} s` : "the server's default grouping";
    console.log(
      `bench:alerts, time from a target failing to the first message at the fake (retry interval ${RETRY_INTERVAL_S} s, timeout 5 s, channel 0 with ${grouping})`,
    );
    for (const c of cases) {
      console.log(
        `  ${String(c.interval).padStart(2)} s, ${c.retries} retries: p50 ${f(c.p50 / 1000, 1)} s, p99 ${f(c.p99 / 1000, 1)} s, max ${f(c.max / 1000, 1)} s (${c.messaged} of ${c.monitors} monitors messaged)`,
      );
    }
    const rel = (at) => (at === null ? '-' : `${f((at - s.flipAt) / 1000, 1)} s`);
    console.log(`storm: ${s.monitors} monitors down at once through ${CHANNELS} webhook channels`);
    console.log(
      `  first transition ${rel(s.firstTransition)} after the flip, first message ${rel(s.firstMessage)}, last message ${rel(s.lastMessage)}`,
    );
    console.log(
      `  first transition → last message ${s.firstTransition && s.lastMessage ? f((s.lastMessage - s.firstTransition) / 1000, 1) : '-'} s`,
    );
    s.perChannel.forEach((c, i) => console.log(`  channel ${i}: ${c.messages} messages naming ${c.named} of ${s.monitors} monitors`));
    console.log(latenessLine(`background lateness, ${BACKGROUND} monitors at 60 s, before`, quiet));
    console.log(latenessLine('background lateness during the storm', during));
    console.log(`  json ${JSON.stringify({ cases, storm: s, quiet, during })}`);
  } finally {
    if (server) await server.stop();
    await Promise.all([flip.close(), sink.close(), background.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
    await admin
      .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      .catch((error) => log(`could not drop ${database}: ${error.message}`));
    await admin.end();
  }
}

await main();

// `bench:checker --mix http:40,tcp:20,ping:15,dns:15,push:10,mqtt:5,amqp:5,nats:5,smtp:5,ntp:5`: monitors of several
// types, their loopback targets, the push feeder, and the figures per type. Shares are percentages of --monitors (not normalised), so
// `--mix ping:15 --monitors 10000` is the ping share of the mix alone (1,500 ping monitors): the way CPU per check per
// type is obtained, since one server's CPU cannot be split by type.
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { analyseArrivals, forkTarget, SERVER_DIST } from './checker-run.mjs';
import { mqttTopic, natsSubject } from './mix-brokers.mjs';
import { api, cpuSeconds, f, percentile } from './measure.mjs';

const require = createRequire(import.meta.url);
const { slotGrainMs, spreadOffsetMs } = require(join(SERVER_DIST, 'monitors/monitor-state.js'));
const MIX_TYPES = ['http', 'tcp', 'ping', 'dns', 'push', 'mqtt', 'amqp', 'nats', 'smtp', 'ntp'];
/** The machine's brokers the mqtt, amqp and nats monitors check (process names in /proc), whose CPU is printed apart. */
const BROKERS = { mqtt: 'mosquitto', amqp: 'beam.smp', nats: 'nats-server' };
/** A push is sent this long after its monitor's slot, so the check on the slot sees one from 40 s before. */
const PUSH_PHASE_MS = 20_000;
/** A push sent more than this after its plan counts as late. */
const PUSH_LATE_MS = 1000;
/**
 * Pushes leave from this many loopback addresses (127.0.1.1 …), as cron jobs on many hosts would: the server takes
 * at most 600 pushes a minute from one address (PushService), which 1,000 push monitors at 60 s would exceed.
 */
const PUSH_SOURCES = 16;

/** `http:40,tcp:20` → blocks of monitor indexes per type, in the order given. */
export function parseMix(text, monitors) {
  const blocks = [];
  let from = 0;
  for (const part of text.split(',').filter(Boolean)) {
    const [type, share] = part.split(':');
    if (!MIX_TYPES.includes(type) || !(Number(share) > 0) || blocks.some((b) => b.type === type)) {
      throw new Error(`--mix: "${part}" is not one of ${MIX_TYPES.join(', ')} with a share > 0, each once`);
    }
    const count = Math.round((monitors * Number(share)) / 100);
    blocks.push({ type, share: Number(share), from, count });
    from += count;
  }
  if (from === 0) throw new Error('--mix gives no monitors');
  return { blocks, total: from, typeOf: (index) => blocks.find((b) => index >= b.from && index < b.from + b.count).type };
}

/**
 * The TCP listeners (one per TCP monitor), the DNS server, the SMTP greeters and NTP responders (one per monitor) and
 * the MQTT subscriber and NATS responder, in their own process.
 */
export async function startMixTarget(mix) {
  const count = (type) => mix.blocks.find((b) => b.type === type)?.count ?? 0;
  // Topics and subjects carry the run's id, so a run never sees another run's (or a test's) messages.
  const runId = `${process.pid}x${Date.now()}`;
  const brokers = ['mqtt', 'nats'].filter((type) => count(type) > 0).join(',');
  const args = [count('tcp'), count('smtp'), count('ntp'), runId, brokers].map(String);
  const target = await forkTarget(join(import.meta.dirname, 'mix-target.mjs'), args, { name: 'mix target', startMs: 30_000 });
  return {
    pid: target.pid,
    runId,
    tcpPorts: target.ready.tcpPorts,
    dnsPort: target.ready.dnsPort,
    smtpPorts: target.ready.smtpPorts,
    ntpPorts: target.ready.ntpPorts,
    arrivals: (kind) => target.ask({ type: 'arrivals', kind: ['tcp', 'dns', 'smtp', 'ntp', 'mqtt', 'nats'].indexOf(kind) }),
    stats: () => target.ask({ type: 'stats' }),
    stop: target.stop,
  };
}

/** The create body of monitor `index`; `block` is its type's block, `targets` the loopback targets. */
export function monitorBody(mix, index, targets, base) {
  const type = mix.typeOf(index);
  const block = mix.blocks.find((b) => b.type === type);
  const local = index - block.from;
  const common = { ...base, name: `bench ${type} ${index}` };
  if (type === 'http')
    return { ...common, url: `http://127.0.0.1:${targets.httpPorts[local % targets.httpPorts.length]}/m/${index}`, expectedStatus: 200 };
  if (type === 'tcp') return { ...common, type, hostname: '127.0.0.1', port: targets.tcpPorts[local] };
  // 127.0.0.1 … 127.0.255.254 (never .0 or .255 in the last byte): the whole of 127/8 answers on Linux's loopback.
  if (type === 'ping') return { ...common, type, hostname: `127.0.${Math.floor(local / 254) % 256}.${(local % 254) + 1}` };
  if (type === 'dns')
    return { ...common, type, hostname: `m${index}.bench.test`, dnsRecordType: 'A', dnsServer: `127.0.0.1:${targets.dnsPort}` };
  if (type === 'mqtt') {
    // Each monitor publishes its own message to its own topic and waits for it (Mosquitto allows anonymous clients).
    const topic = mqttTopic(targets.runId, index);
    return {
      ...common,
      type,
      hostname: '127.0.0.1',
      port: 1883,
      mqttTopic: topic,
      mqttPublishMessage: `ping ${index}`,
      mqttSuccessMessage: 'ping',
    };
  }
  if (type === 'amqp') return { ...common, type, hostname: '127.0.0.1', port: 5672, amqpUsername: 'guest', amqpPassword: 'guest' };
  if (type === 'nats') return { ...common, type, hostname: '127.0.0.1', port: 4222, natsSubject: natsSubject(targets.runId, index) };
  if (type === 'smtp') return { ...common, type, hostname: '127.0.0.1', port: targets.smtpPorts[local], smtpSecurity: 'nostarttls' };
  if (type === 'ntp') return { ...common, type, hostname: '127.0.0.1', port: targets.ntpPorts[local] };
  const { timeout: _timeout, ...push } = common;
  return { ...push, type };
}

/**
 * Pushes for each push monitor once per interval, PUSH_PHASE_MS after its slot, from when it is added until stop().
 * Bounded: one timer per monitor, none after `stopAt`.
 */
export function pushFeeder(base, intervalMs) {
  const sent = [];
  const agents = Array.from({ length: PUSH_SOURCES }, (_, i) => new Agent({ keepAlive: true, localAddress: `127.0.1.${i + 1}` }));
  const send = (id, token) =>
    new Promise((resolve) => {
      const request = get(`${base}/api/push/${token}?status=up`, { agent: agents[id % PUSH_SOURCES] }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200));
      });
      request.on('error', () => resolve(false));
    });
  const timers = new Map();
  let stopAt = Infinity;
  let stopped = false;
  const plan = (id, after) => {
    const offset = (spreadOffsetMs(id, intervalMs) + PUSH_PHASE_MS) % intervalMs;
    const late = (((after - offset) % intervalMs) + intervalMs) % intervalMs;
    return after - late + intervalMs;
  };
  const schedule = (id, token, planned) => {
    if (stopped || planned >= stopAt) return;
    timers.set(
      id,
      setTimeout(async () => {
        const at = Date.now();
        const record = { id, planned, at, ok: false, ms: NaN };
        sent.push(record);
        schedule(id, token, plan(id, at + 1));
        record.ok = await send(id, token);
        record.ms = Date.now() - at;
      }, planned - Date.now()),
    );
  };
  return {
    sent,
    add: (id, token) => schedule(id, token, plan(id, Date.now())),
    setStopAt: (at) => {
      stopAt = at;
    },
    stop: () => {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      for (const agent of agents) agent.destroy();
    },
  };
}

/** Every stored check of the given monitors (newest `pageSize`), as an arrival log: checked_at per monitor index. */
export async function storedChecks(base, token, entries, pageSize = 50, concurrency = 16) {
  const index = [];
  const at = [];
  const down = [];
  let next = 0;
  async function worker() {
    while (next < entries.length) {
      const entry = entries[next];
      next += 1;
      const response = await api(base, token, 'GET', `/api/monitors/${entry.id}/checks?pageSize=${pageSize}`);
      if (response.status !== 200) continue;
      for (const check of response.json().checks) {
        const time = Date.parse(check.checked_at);
        index.push(entry.index);
        at.push(time);
        if (check.status === 'down') down.push({ index: entry.index, at: time, error: check.error });
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { index, at, down };
}

const idsOf = (ids, mix, type) => ids.map((id, index) => (id !== undefined && mix.typeOf(index) === type ? id : undefined));

/** CPU seconds of each machine broker the mix uses (all its processes of that name), keyed by monitor type. */
export function brokerCpuSeconds(mix) {
  const out = {};
  for (const { type } of mix.blocks) {
    if (!BROKERS[type]) continue;
    out[type] = 0;
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() === BROKERS[type]) out[type] += cpuSeconds(name) ?? 0;
      } catch {
        // exited meanwhile
      }
    }
  }
  return out;
}

/**
 * Figures per type over the window [t0, t1). http, tcp, dns, smtp, ntp: arrivals at their targets; mqtt: each
 * monitor's message reaching the bench's subscriber (after the check's connect, subscribe and publish); nats: each
 * monitor's request reaching the bench's responder; amqp (nothing of ours sees the connection reach RabbitMQ) and
 * ping: the server's stored
 * checks (checked_at is when fping started, after the gathering) against their slots on the server's grain for
 * batched types (slotGrainMs); push: the feeder's pushes and the stored
 * checks (up rows are the pushes the server took; down rows are missed heartbeats).
 */
export async function mixFigures({ mix, ids, t0, t1, createdFrom, intervalMs, httpArrivals, mixTarget, base, token, feeder, seconds }) {
  const out = {};
  const count = (type) => idsOf(ids, mix, type).filter((id) => id !== undefined).length;
  const fromArrivals = (type, arrivals, source) => {
    const grain = slotGrainMs(type === 'ping', intervalMs);
    const a = analyseArrivals(arrivals, idsOf(ids, mix, type), t0, t1, createdFrom, intervalMs, (id) =>
      spreadOffsetMs(id, intervalMs, grain),
    );
    return {
      monitors: count(type),
      source,
      checksPerSecond: a.onSlots / seconds,
      expected: count(type) / (intervalMs / 1000),
      missed: a.missed,
      monitorsMissing: a.monitorsMissing,
      extra: a.extra,
      offSlot: a.offSlot,
      p50: a.p50,
      p99: a.p99,
      max: a.max,
    };
  };
  const entries = (type) => ids.flatMap((id, index) => (id !== undefined && mix.typeOf(index) === type ? [{ id, index }] : []));
  for (const { type } of mix.blocks) {
    if (type === 'http') out.http = fromArrivals('http', httpArrivals, 'arrivals at the HTTP target');
    if (type === 'tcp') {
      // The listener's place in the TCP block → the monitor's index.
      const { index, at } = await mixTarget.arrivals('tcp');
      const from = mix.blocks.find((b) => b.type === 'tcp').from;
      out.tcp = fromArrivals('tcp', { index: index.map((i) => i + from), at }, 'accepts at the TCP listeners');
    }
    if (type === 'dns') out.dns = fromArrivals('dns', await mixTarget.arrivals('dns'), 'questions at the DNS server');
    if (type === 'smtp' || type === 'ntp') {
      const { index, at } = await mixTarget.arrivals(type);
      const from = mix.blocks.find((b) => b.type === type).from;
      const source = type === 'smtp' ? 'accepts at the SMTP greeters' : 'requests at the NTP responders';
      out[type] = fromArrivals(type, { index: index.map((i) => i + from), at }, source);
    }
    if (type === 'mqtt')
      out.mqtt = fromArrivals('mqtt', await mixTarget.arrivals('mqtt'), "each monitor's message at the bench's subscriber");
    if (type === 'nats')
      out.nats = fromArrivals('nats', await mixTarget.arrivals('nats'), "each monitor's request at the bench's responder");
    if (type === 'amqp')
      out.amqp = fromArrivals('amqp', await storedChecks(base, token, entries('amqp')), "server's stored checked_at (the check's start)");
    if (['mqtt', 'amqp', 'nats', 'smtp', 'ntp'].includes(type)) {
      // Down checks in the window say whether the checks that arrived also succeeded.
      const stored = await storedChecks(base, token, entries(type));
      const downs = stored.down.filter((d) => d.at >= t0 && d.at < t1);
      out[type].down = downs.length;
      out[type].downErrors = [...new Set(downs.map((d) => d.error))].slice(0, 3);
    }
    if (type === 'ping') {
      const stored = await storedChecks(base, token, entries('ping'));
      out.ping = fromArrivals('ping', stored, "server's stored checked_at (when fping started)");
      const downs = stored.down.filter((d) => d.at >= t0 && d.at < t1);
      out.ping.down = downs.length;
      out.ping.downErrors = [...new Set(downs.map((d) => d.error))].slice(0, 3);
    }
    if (type === 'push') {
      const stored = await storedChecks(base, token, entries('push'));
      const inWindow = (time) => time >= t0 && time < t1;
      const planned = feeder.sent.filter((s) => inWindow(s.planned));
      const late = planned.map((s) => s.at - s.planned).sort((x, y) => x - y);
      const stillOpen = planned.filter((s) => Number.isNaN(s.ms)).length;
      const downs = stored.down.filter((d) => inWindow(d.at));
      out.push = {
        monitors: count('push'),
        source: "the bench's pushes (lateness: sent vs planned) and the server's stored checks (down: missed heartbeats)",
        checksPerSecond: (stored.at.filter(inWindow).length - downs.length) / seconds,
        expected: count('push') / (intervalMs / 1000),
        pushes: planned.length,
        failed: planned.filter((s) => !s.ok && !Number.isNaN(s.ms)).length,
        unanswered: stillOpen,
        late: late.filter((ms) => ms > PUSH_LATE_MS).length,
        p50: percentile(late, 0.5),
        p99: percentile(late, 0.99),
        max: late.length ? late[late.length - 1] : NaN,
        answerP99: percentile(
          planned
            .map((s) => s.ms)
            .filter(Number.isFinite)
            .sort((x, y) => x - y),
          0.99,
        ),
        down: downs.length,
        monitorsDown: new Set(downs.map((d) => d.index)).size,
      };
    }
  }
  return out;
}

export function mixLines(perType) {
  return Object.entries(perType).map(([type, t]) => {
    const head = `  ${type.padEnd(5)} ${String(t.monitors).padStart(5)} monitors: ${f(t.checksPerSecond, 1)} checks/s (expected ${f(t.expected, 1)}), lateness p50 ${f(t.p50)} ms, p99 ${f(t.p99)} ms, max ${f(t.max)} ms`;
    if (type === 'push') {
      return (
        `${head} (push sent vs planned); ${t.pushes} pushes planned in the window, ${t.failed} failed, ${t.unanswered} unanswered, ` +
        `${t.late} late > ${PUSH_LATE_MS} ms, answer p99 ${f(t.answerP99)} ms; ${t.down} down checks on ${t.monitorsDown} monitors`
      );
    }
    const down = t.down === undefined ? '' : `, ${t.down} down checks${t.downErrors?.length ? ` (${t.downErrors.join('; ')})` : ''}`;
    return `${head}; missed ${t.missed} (${t.monitorsMissing} monitors), extra ${t.extra}, >10 s off slot ${t.offSlot}${down} [${t.source}]`;
  });
}

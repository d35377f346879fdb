// The measuring browser for `bench/agents.mjs`, in its own process: one socket.io-client connection on the server's
// browser namespace with the admin's JWT, subscribed to the `agents` room. For every `agent.reported` push it
// records the arrival time (epoch ms) and the report's send time, which the fleet put in the report's `timestamp`
// and the server hands back as `point.time` (ISO, millisecond precision). Same machine, same wall clock, so
// arrival − send is the report → push latency (fleet emit, server ingest, push, subscriber receipt and parse).
// With `probes` it also joins room `monitors` and records each `monitor.location` push: arrival − the result's
// `checked_at` (which the fleet stamps as it emits it) is the check result's ingest → stored → pushed latency.
//
// Driven over IPC: `start` (connect and subscribe), `stats` (over a window), `live` (the last few seconds), `stop`.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io } from 'socket.io-client';

let socket = null;
let sentAt = new Float64Array(1 << 16);
let arrivedAt = new Float64Array(1 << 16);
let pushes = 0;
const agentsSeen = new Set();
const counters = { statusChanged: 0, toActive: 0, agentsChanged: 0, disconnects: 0, unparsable: 0 };
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
/** `monitor.location` pushes: each result's checked_at and arrival (epoch ms). */
const locations = { checkedAt: new Float64Array(1 << 16), arrivedAt: new Float64Array(1 << 16), count: 0 };
/** Per monitor the newest checked_at pushed: a push repeating one (an agent came or went) is no new result. */
const newestChecked = new Map();
const locationCounters = { repeats: 0, unparsable: 0, notAgent: 0 };

function grow(array) {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

function onReported(event) {
  const now = Date.now();
  const sent = Date.parse(event?.point?.time);
  if (!Number.isFinite(sent)) {
    counters.unparsable += 1;
    return;
  }
  if (pushes === sentAt.length) {
    sentAt = grow(sentAt);
    arrivedAt = grow(arrivedAt);
  }
  sentAt[pushes] = sent;
  arrivedAt[pushes] = now;
  pushes += 1;
  agentsSeen.add(event.agentId);
}

function onLocation(event) {
  const now = Date.now();
  const checked = Date.parse(event?.location?.checked_at);
  if (!Number.isFinite(checked)) {
    locationCounters.unparsable += 1;
    return;
  }
  if (!event.location.location?.startsWith('agent:')) {
    locationCounters.notAgent += 1;
    return;
  }
  if (checked <= (newestChecked.get(event.monitor_id) ?? -Infinity)) {
    locationCounters.repeats += 1;
    return;
  }
  newestChecked.set(event.monitor_id, checked);
  if (locations.count === locations.checkedAt.length) {
    locations.checkedAt = grow(locations.checkedAt);
    locations.arrivedAt = grow(locations.arrivedAt);
  }
  locations.checkedAt[locations.count] = checked;
  locations.arrivedAt[locations.count] = now;
  locations.count += 1;
}

function percentile(sorted, q) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summary(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : NaN,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    p999: percentile(sorted, 0.999),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}

/** Pushes of reports sent in [from, to), and pushes that arrived in [from, to). */
function stats(from, to) {
  const latencies = [];
  let arrivedInWindow = 0;
  // Per second of send time: pushes, and how many took over 100 ms, to see whether slow pushes come in bursts.
  const seconds = new Map();
  for (let i = 0; i < pushes; i += 1) {
    if (arrivedAt[i] >= from && arrivedAt[i] < to) arrivedInWindow += 1;
    if (sentAt[i] < from || sentAt[i] >= to) continue;
    const latency = arrivedAt[i] - sentAt[i];
    latencies.push(latency);
    const second = Math.floor(sentAt[i] / 1000);
    const bucket = seconds.get(second) ?? { second, count: 0, over100: 0, max: 0 };
    bucket.count += 1;
    if (latency > 100) bucket.over100 += 1;
    bucket.max = Math.max(bucket.max, latency);
    seconds.set(second, bucket);
  }
  const buckets = [...seconds.values()];
  const slow = buckets.filter((b) => b.over100 > 0);
  return {
    slowSeconds: {
      seconds: buckets.length,
      withPushesOver100ms: slow.length,
      pushesOver100ms: slow.reduce((a, b) => a + b.over100, 0),
      // The slow seconds in time order (at most 40): when they happen shows what causes them.
      worst: slow
        .sort((a, b) => a.second - b.second)
        .slice(0, 40)
        .map((b) => ({ at: new Date(b.second * 1000).toISOString().slice(11, 19), over100: b.over100, max: b.max })),
    },
    pushesTotal: pushes,
    arrivedInWindow,
    ofReportsSentInWindow: latencies.length,
    latency: summary(latencies),
    agentsSeen: agentsSeen.size,
    counters: { ...counters },
    connected: Boolean(socket?.connected),
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
    locations: locationStats(from, to),
  };
}

/** `monitor.location` pushes of results checked in [from, to), and those that arrived in it. */
function locationStats(from, to) {
  const latencies = [];
  let arrivedInWindow = 0;
  for (let i = 0; i < locations.count; i += 1) {
    if (locations.arrivedAt[i] >= from && locations.arrivedAt[i] < to) arrivedInWindow += 1;
    if (locations.checkedAt[i] >= from && locations.checkedAt[i] < to) latencies.push(locations.arrivedAt[i] - locations.checkedAt[i]);
  }
  return {
    pushesTotal: locations.count,
    arrivedInWindow,
    ofResultsSentInWindow: latencies.length,
    latency: summary(latencies),
    monitorsSeen: newestChecked.size,
    counters: { ...locationCounters },
  };
}

/** Over the pushes that arrived in the last `seconds` (walks back from the newest; bounded by the count). */
function live(seconds) {
  const from = Date.now() - seconds * 1000;
  const latencies = [];
  for (let i = pushes - 1; i >= 0 && arrivedAt[i] >= from; i -= 1) latencies.push(arrivedAt[i] - sentAt[i]);
  return { perSecond: latencies.length / seconds, latency: summary(latencies) };
}

function connect(url, token, rooms) {
  return new Promise((resolve, reject) => {
    socket = io(url, { auth: { token }, transports: ['websocket'], forceNew: true, reconnectionDelay: 1000 });
    const timer = setTimeout(() => reject(new Error('subscriber did not connect within 30 s')), 30_000);
    socket.on('agent.reported', onReported);
    socket.on('monitor.location', onLocation);
    socket.on('agent.status_changed', (event) => {
      counters.statusChanged += 1;
      if (event?.status === 'active') counters.toActive += 1;
    });
    socket.on('agents.changed', () => {
      counters.agentsChanged += 1;
    });
    socket.on('disconnect', () => {
      counters.disconnects += 1;
    });
    // Subscribes again after a reconnect, as the web client does.
    socket.on('connect', () => {
      Promise.all(rooms.map((room) => socket.timeout(10_000).emitWithAck('subscribe', room))).then(
        (acks) => {
          clearTimeout(timer);
          const refused = acks.find((ack) => !ack?.ok);
          if (refused) reject(new Error(`subscribe refused: ${JSON.stringify(refused)}`));
          else resolve();
        },
        (error) => reject(error),
      );
    });
    socket.on('connect_error', (error) => {
      if (!socket.active) {
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

process.on('message', async (message) => {
  const reply = (body) => process.send({ id: message.id, ...body });
  try {
    if (message.type === 'start') {
      await connect(message.url, message.token, message.probes ? ['agents', 'monitors'] : ['agents']);
      reply({ ok: true });
    } else if (message.type === 'stats') {
      reply(stats(message.from, message.to));
    } else if (message.type === 'live') {
      reply(live(message.seconds));
    } else if (message.type === 'reset-loop-delay') {
      loopDelay.reset();
      reply({ ok: true });
    } else if (message.type === 'stop') {
      socket?.disconnect();
      reply({ ok: true });
      setTimeout(() => process.exit(0), 100);
    }
  } catch (error) {
    reply({ error: error.message });
  }
});
process.on('disconnect', () => {
  socket?.disconnect();
  setTimeout(() => process.exit(0), 100);
});
process.send({ type: 'ready' });

// Viewers for `npm run bench:live`, in their own process (forked with an IPC channel): many socket.io-client
// connections to the server's browser namespace, each a socket of its own (forceNew, websocket only), of two kinds:
// - status page viewers: anonymous, subscribed to `status`; they record every `status.item` push carrying a monitor;
// - dashboard viewers: signed in with the admin's JWT, subscribed to `monitors` and `agents` (as the dashboard is);
//   they record every `monitor.status_changed` push.
// For each such push the arrival time (Date.now(), epoch ms, the same wall clock as the orchestrator) is stored with
// the socket, the monitor id and the status it carries. Nothing is matched while pushes arrive: at the end the
// orchestrator sends the list of changes it made and this process matches them (`analyse`), so the measuring costs
// the receiving sockets one array write per push.
//
// IPC (requests carry an id, replies echo it): start {url, token, status, dashboard, concurrency} → {connected,
// failed, errors, seconds}; counts → counters; reset-loop-delay; analyse {changes, end} → per-kind latencies;
// stop (disconnect all, exit).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io } from 'socket.io-client';

const STATUS_CODES = { up: 1, down: 2, pending: 3, paused: 4 };
const sockets = [];
/** Per socket: 'status' or 'dashboard'. */
const kinds = [];
let size = 1 << 16;
let count = 0;
let socketOf = new Int32Array(size);
let monitorOf = new Int32Array(size);
let statusOf = new Uint8Array(size);
let arrivedAt = new Float64Array(size);
const counters = {
  statusItems: 0,
  statusChanged: 0,
  monitorChecked: 0,
  otherPushes: 0,
  disconnects: 0,
  reconnects: 0,
  subscribeRefused: 0,
  connectErrors: 0,
};
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

function grow() {
  const bigger = (Type, array) => {
    const next = new Type(size * 2);
    next.set(array);
    return next;
  };
  socketOf = bigger(Int32Array, socketOf);
  monitorOf = bigger(Int32Array, monitorOf);
  statusOf = bigger(Uint8Array, statusOf);
  arrivedAt = bigger(Float64Array, arrivedAt);
  size *= 2;
}

function record(socketIndex, monitorId, status) {
  const now = Date.now();
  if (count === size) grow();
  socketOf[count] = socketIndex;
  monitorOf[count] = monitorId;
  statusOf[count] = STATUS_CODES[status] ?? 0;
  arrivedAt[count] = now;
  count += 1;
}

function openSocket(url, kind, token) {
  const index = sockets.length;
  const rooms = kind === 'status' ? ['status'] : ['monitors', 'agents'];
  const socket = io(url, {
    ...(kind === 'dashboard' ? { auth: { token } } : {}),
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 1000,
  });
  sockets.push(socket);
  kinds.push(kind);
  if (kind === 'status') {
    socket.on('status.item', (event) => {
      counters.statusItems += 1;
      if (event?.monitor) record(index, event.monitor.id, event.monitor.status);
    });
  } else {
    socket.on('monitor.status_changed', (event) => {
      counters.statusChanged += 1;
      record(index, event.monitorId, event.status);
    });
    socket.on('monitor.checked', () => {
      counters.monitorChecked += 1;
    });
  }
  socket.onAny((name) => {
    if (name !== 'status.item' && name !== 'monitor.status_changed' && name !== 'monitor.checked') counters.otherPushes += 1;
  });
  socket.on('disconnect', () => {
    counters.disconnects += 1;
  });
  return new Promise((resolve) => {
    let first = true;
    const timer = setTimeout(() => resolve({ ok: false, error: 'no connect + subscribe within 30 s' }), 30_000);
    // Subscribes again after a reconnect, as the web client does.
    socket.on('connect', async () => {
      if (!first) counters.reconnects += 1;
      const wasFirst = first;
      first = false;
      try {
        const acks = await Promise.all(rooms.map((room) => socket.timeout(15_000).emitWithAck('subscribe', room)));
        const ok = acks.every((ack) => ack?.ok);
        if (!ok) counters.subscribeRefused += 1;
        if (wasFirst) {
          clearTimeout(timer);
          resolve(ok ? { ok: true } : { ok: false, error: `subscribe refused: ${JSON.stringify(acks)}` });
        }
      } catch (error) {
        if (wasFirst) {
          clearTimeout(timer);
          resolve({ ok: false, error: error.message });
        }
      }
    });
    socket.on('connect_error', (error) => {
      counters.connectErrors += 1;
      if (first && !socket.active) {
        clearTimeout(timer);
        resolve({ ok: false, error: error.message });
      }
    });
  });
}

async function start({ url, token, status, dashboard, concurrency }) {
  const started = Date.now();
  // Interleaved, so a partial connect leaves both kinds represented.
  const order = [];
  for (let s = 0, d = 0; s < status || d < dashboard;) {
    if (s < status && (s <= d || d >= dashboard)) {
      order.push('status');
      s += 1;
    } else {
      order.push('dashboard');
      d += 1;
    }
  }
  let next = 0;
  let connected = 0;
  const errors = [];
  async function worker() {
    while (next < order.length) {
      const kind = order[next];
      next += 1;
      const result = await openSocket(url, kind, token);
      if (result.ok) connected += 1;
      else errors.push(result.error);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, order.length)) }, worker));
  return { connected, failed: errors.length, errors: [...new Set(errors)].slice(0, 5), seconds: (Date.now() - started) / 1000 };
}

function current() {
  const connected = { status: 0, dashboard: 0 };
  sockets.forEach((socket, i) => {
    if (socket.connected) connected[kinds[i]] += 1;
  });
  return {
    connected,
    counters: { ...counters },
    pushesRecorded: count,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
  };
}

/**
 * Matches the orchestrator's changes to the pushes received: for change c (monitor, new status, `from` = just before
 * the target was flipped, `at` = just before the check call, `until` = when the same monitor was next flipped), a
 * socket of the kind delivered it when a push for that monitor carrying the new status arrived in [from, until).
 * Latency = arrival − at. A push between `from` and `at` (a scheduled check saw the flipped target first) is counted
 * as raced, not as a latency.
 */
function analyse({ changes }) {
  // Arrivals by socket, monitor and status, in order.
  const byKey = new Map();
  for (let i = 0; i < count; i += 1) {
    const key = `${socketOf[i]}:${monitorOf[i]}:${statusOf[i]}`;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(arrivedAt[i]);
  }
  const result = {
    status: { sockets: 0, latencies: [], expected: 0, delivered: 0, missed: 0, raced: 0 },
    dashboard: { sockets: 0, latencies: [], expected: 0, delivered: 0, missed: 0, raced: 0 },
    perChange: [],
  };
  for (const kind of kinds) result[kind].sockets += 1;
  for (const change of changes) {
    const code = STATUS_CODES[change.status];
    const perKind = { status: { delivered: 0, max: 0 }, dashboard: { delivered: 0, max: 0 } };
    for (let s = 0; s < sockets.length; s += 1) {
      const kind = kinds[s];
      const target = result[kind];
      target.expected += 1;
      const list = byKey.get(`${s}:${change.monitorId}:${code}`);
      let arrival = null;
      if (list) {
        for (const at of list) {
          if (at >= change.from && at < change.until) {
            arrival = at;
            break;
          }
        }
      }
      if (arrival === null) {
        target.missed += 1;
        continue;
      }
      if (arrival < change.at) {
        target.raced += 1;
        continue;
      }
      const latency = arrival - change.at;
      target.delivered += 1;
      target.latencies.push(latency);
      perKind[kind].delivered += 1;
      perKind[kind].max = Math.max(perKind[kind].max, latency);
    }
    result.perChange.push(perKind);
  }
  return { ...result, ...current() };
}

process.on('message', async (message) => {
  const reply = (body) => process.send({ id: message.id, ...body });
  try {
    if (message.type === 'start') reply(await start(message));
    else if (message.type === 'counts') reply(current());
    else if (message.type === 'reset-loop-delay') {
      loopDelay.reset();
      reply({ ok: true });
    } else if (message.type === 'analyse') reply(analyse(message));
    else if (message.type === 'stop') {
      for (const socket of sockets) socket.disconnect();
      reply({ ok: true });
      setTimeout(() => process.exit(0), 200);
    }
  } catch (error) {
    reply({ error: error.stack ?? error.message });
  }
});
process.on('disconnect', () => {
  for (const socket of sockets) socket.disconnect();
  setTimeout(() => process.exit(0), 200);
});
process.send({ type: 'ready' });

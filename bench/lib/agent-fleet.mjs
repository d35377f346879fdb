// One process of the simulated agent fleet for `bench/agents.mjs`: holds many real socket.io-client connections to
// the server's `/agent` namespace (one Manager and one WebSocket each, `forceNew`), says hello on every connect, and
// sends one report per agent per interval, the fleet's agents spread evenly over the interval. Every report's
// `timestamp` is the wall-clock epoch time at which it is emitted, so the subscriber (another process on the same
// machine, same clock) can measure report → push latency from the pushed point's `time`. With `--probes` the
// agents speak protocol 2, keep the checks the server assigns them and send their results (probe-schedule.mjs).
//
// Driven over IPC by bench/agents.mjs: `connect`, `start`, `stats`, `stop` (each request carries an `id`, answered
// with the same `id`). Every loop is bounded; nothing here listens on a port.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import { heldCount, holdAssignments, probeStats, startProbing, stopProbing } from './probe-schedule.mjs';

/** Protocol 2 agents are assigned checks; without --probes the fleet stays the protocol 1 fleet it always was. */
let protocol = 1;
const ACK_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 60_000;
const GIB = 1024 ** 3;

/** @type {Array<{ index: number; credential: string; socket: any; helloed: boolean; phaseMs: number; rx: number; tx: number; memUsed: number; probes: Map<number, string> }>} */
let agents = [];
let reporting = null;
const counters = { connectErrors: 0, disconnects: 0, reconnects: 0, helloFailed: 0 };
// Per report: send time (epoch ms), ack latency (ms, NaN until acked, -1 on timeout, -2 refused).
let sentAt = new Float64Array(1 << 16);
let ackMs = new Float64Array(1 << 16);
let sent = 0;
const skipped = { notConnected: 0, late: 0 };
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

function record(at) {
  if (sent === sentAt.length) {
    const grow = (array) => {
      const bigger = new Float64Array(array.length * 2);
      bigger.set(array);
      return bigger;
    };
    sentAt = grow(sentAt);
    ackMs = grow(ackMs);
  }
  sentAt[sent] = at;
  ackMs[sent] = NaN;
  sent += 1;
  return sent - 1;
}

function hello(agent) {
  return {
    hostname: `bench-agent-${agent.index}`,
    ip_addresses: [`10.${(agent.index >> 16) & 255}.${(agent.index >> 8) & 255}.${agent.index & 255}`],
    os: 'Debian GNU/Linux 12',
    platform: 'linux',
    kernel: '6.1.0-18-amd64',
    arch: 'x64',
    cpu_model: 'Bench CPU',
    cpu_cores: 4,
    agent_version: '0.1.0-bench',
    interval: reporting?.intervalS ?? agentsInterval,
  };
}
let agentsInterval = 10;

/** A realistic report (two disks, two interfaces) stamped with the moment it is emitted. */
function report(agent, intervalS) {
  const rxRate = 20 + Math.random() * 200;
  const txRate = 10 + Math.random() * 100;
  agent.rx += rxRate * 1024 * intervalS;
  agent.tx += txRate * 1024 * intervalS;
  agent.memUsed = Math.min(7.5 * GIB, Math.max(0.5 * GIB, agent.memUsed + (Math.random() - 0.5) * 0.1 * GIB));
  const cpu = Math.round(Math.random() * 1000) / 10;
  return {
    timestamp: Date.now(),
    cpu,
    load: [cpu / 25, cpu / 30, cpu / 35],
    memory_total: 8 * GIB,
    memory_used: Math.round(agent.memUsed),
    swap_total: 2 * GIB,
    swap_used: 0,
    disks: [
      { mount: '/', fs: 'ext4', total: 100 * GIB, used: 40 * GIB + (agent.index % 1000) * 1e6 },
      { mount: '/var', fs: 'xfs', total: 500 * GIB, used: 120 * GIB },
    ],
    interfaces: [
      {
        name: 'eth0',
        rx_rate: Math.round(rxRate * 10) / 10,
        tx_rate: Math.round(txRate * 10) / 10,
        rx_bytes: Math.round(agent.rx),
        tx_bytes: Math.round(agent.tx),
      },
      { name: 'lo', rx_rate: 0.5, tx_rate: 0.5, rx_bytes: 1e6, tx_bytes: 1e6 },
    ],
    uptime: 86_400 + (Math.floor(Date.now() / 1000) % 86_400),
  };
}

/** Opens one agent's socket and resolves once its first hello is acknowledged (or failed / timed out). */
function connectOne(url, agent) {
  return new Promise((resolve) => {
    const socket = io(`${url}/agent`, {
      auth: { protocol, credential: agent.credential },
      transports: ['websocket'],
      forceNew: true,
      reconnection: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      timeout: 20_000,
    });
    agent.socket = socket;
    // The server sends the agent's checks before it acknowledges the hello.
    socket.on('probes', (message) => holdAssignments(agent, message));
    let settled = false;
    const settle = (ok) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => settle(false), CONNECT_TIMEOUT_MS);
    let connects = 0;
    socket.on('connect', () => {
      connects += 1;
      if (connects > 1) counters.reconnects += 1;
      socket
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck('hello', hello(agent))
        .then(
          (ack) => {
            agent.helloed = Boolean(ack?.ok);
            if (!agent.helloed) counters.helloFailed += 1;
            settle(agent.helloed);
          },
          () => {
            counters.helloFailed += 1;
            settle(false);
          },
        );
    });
    socket.on('disconnect', () => {
      agent.helloed = false;
      counters.disconnects += 1;
    });
    socket.on('connect_error', () => {
      counters.connectErrors += 1;
    });
  });
}

async function connectAll(url, list, concurrency) {
  agents = list.map(({ index, credential }) => ({
    index,
    credential,
    socket: null,
    helloed: false,
    phaseMs: 0,
    rx: 1e9,
    tx: 5e8,
    memUsed: 2 * GIB,
    probes: new Map(),
  }));
  let next = 0;
  let ok = 0;
  let failed = 0;
  const started = Date.now();
  let lastProgress = started;
  async function worker() {
    while (next < agents.length) {
      const agent = agents[next];
      next += 1;
      if (await connectOne(url, agent)) ok += 1;
      else failed += 1;
      if (Date.now() - lastProgress > 5000) {
        lastProgress = Date.now();
        process.send({ type: 'progress', connected: ok, failed, of: agents.length });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, agents.length) }, worker));
  return { connected: ok, failed, seconds: (Date.now() - started) / 1000, checksHeld: heldCount(agents) };
}

/**
 * Reports on a fixed schedule: agent with global index i reports at startAt + (i / total) × interval + k × interval.
 * The agents are walked in phase order with one timer aimed at the next due report.
 */
function startReporting({ startAt, intervalS, total }) {
  const intervalMs = intervalS * 1000;
  for (const agent of agents) agent.phaseMs = (agent.index / total) * intervalMs;
  agents.sort((a, b) => a.phaseMs - b.phaseMs);
  const state = { intervalS, intervalMs, startAt, cycle: 0, cursor: 0, timer: null, stopped: false };
  reporting = state;
  if (!agents.length) return;
  const due = () => state.startAt + state.cycle * state.intervalMs + agents[state.cursor].phaseMs;
  const tick = () => {
    if (state.stopped) return;
    const now = Date.now();
    // At most one interval's worth of reports per tick (bounded), normally a handful.
    for (let budget = agents.length; budget > 0 && due() <= now; budget -= 1) {
      const agent = agents[state.cursor];
      const slotAt = due();
      state.cursor += 1;
      if (state.cursor === agents.length) {
        state.cursor = 0;
        state.cycle += 1;
      }
      // A report more than one interval behind its slot is dropped rather than sent in a burst.
      if (now - slotAt > state.intervalMs) {
        skipped.late += 1;
        continue;
      }
      if (!agent.socket?.connected || !agent.helloed) {
        skipped.notConnected += 1;
        continue;
      }
      const body = report(agent, intervalS);
      const slot = record(body.timestamp);
      agent.socket
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck('report', body)
        .then(
          (ack) => {
            ackMs[slot] = ack?.ok ? Date.now() - body.timestamp : -2;
          },
          () => {
            ackMs[slot] = -1;
          },
        );
    }
    state.timer = setTimeout(tick, Math.max(1, due() - Date.now()));
  };
  state.timer = setTimeout(tick, Math.max(0, startAt - Date.now()));
}

/** Reports sent in [from, to) by send time: counts and the acknowledged ones' latencies. */
function stats(from, to) {
  const latencies = [];
  let inWindow = 0;
  let acked = 0;
  let timedOut = 0;
  let refused = 0;
  let pending = 0;
  for (let i = 0; i < sent; i += 1) {
    if (sentAt[i] < from || sentAt[i] >= to) continue;
    inWindow += 1;
    const ms = ackMs[i];
    if (Number.isNaN(ms)) pending += 1;
    else if (ms === -1) timedOut += 1;
    else if (ms === -2) refused += 1;
    else {
      acked += 1;
      latencies.push(ms);
    }
  }
  let connected = 0;
  let helloed = 0;
  for (const agent of agents) {
    if (agent.socket?.connected) connected += 1;
    if (agent.helloed) helloed += 1;
  }
  return {
    agents: agents.length,
    connected,
    helloed,
    sentTotal: sent,
    inWindow,
    acked,
    timedOut,
    refused,
    pending,
    latencies,
    skipped: { ...skipped },
    counters: { ...counters },
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
    probes: probeStats(from, to, agents),
  };
}

function stopSending() {
  if (reporting) {
    reporting.stopped = true;
    clearTimeout(reporting.timer);
  }
  stopProbing();
}

function closeAll() {
  stopSending();
  for (const agent of agents) {
    if (agent.socket?.io.opts) agent.socket.io.opts.reconnection = false;
    agent.socket?.disconnect();
  }
}

process.on('message', async (message) => {
  const reply = (body) => process.send({ id: message.id, ...body });
  try {
    if (message.type === 'connect') {
      agentsInterval = message.intervalS;
      protocol = message.protocol ?? 1;
      reply(await connectAll(message.url, message.agents, message.concurrency));
    } else if (message.type === 'start') {
      startReporting(message);
      const probeSlots = message.probes ? startProbing(agents, message.probes) : 0;
      reply({ ok: true, probeSlots });
    } else if (message.type === 'stop-reporting') {
      stopSending();
      reply({ ok: true });
    } else if (message.type === 'reset-loop-delay') {
      loopDelay.reset();
      reply({ ok: true });
    } else if (message.type === 'stats') {
      reply(stats(message.from, message.to));
    } else if (message.type === 'stop') {
      closeAll();
      reply({ ok: true });
      setTimeout(() => process.exit(0), 200);
    }
  } catch (error) {
    reply({ error: error.message });
  }
});
process.on('disconnect', () => {
  // The benchmark went away (Ctrl-C, crash): close everything and leave.
  closeAll();
  setTimeout(() => process.exit(0), 200);
});
process.send({ type: 'ready' });

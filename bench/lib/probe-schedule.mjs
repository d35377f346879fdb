// The fleet's side of `bench:agents --probes N`, in each fleet process: every agent keeps the checks the server
// assigns it (`probes` messages: a full set after each hello, then upserts and removes) and, once started, sends a
// result for each on a fixed schedule, one `probe.results` message per result. Real agents batch a second's results
// into one message; one per message is the harder case for the server (a message, an ack and a limiter take each).
//
// The results are made up (ok, 5–50 ms): nothing is probed, so the figures are the server's ingest → store → push
// path alone. Every loop is bounded; nothing here listens on a port.

const ACK_TIMEOUT_MS = 10_000;

/** Send times (epoch ms) and ack latencies (ms; NaN until answered, -1 timed out, -2 refused whole). */
class Sends {
  sentAt = new Float64Array(1 << 16);
  ackMs = new Float64Array(1 << 16);
  count = 0;

  record(at) {
    if (this.count === this.sentAt.length) {
      const grow = (array) => {
        const bigger = new Float64Array(array.length * 2);
        bigger.set(array);
        return bigger;
      };
      this.sentAt = grow(this.sentAt);
      this.ackMs = grow(this.ackMs);
    }
    this.sentAt[this.count] = at;
    this.ackMs[this.count] = NaN;
    this.count += 1;
    return this.count - 1;
  }
}

const sends = new Sends();
/** Per send: results the ack named as refused (0 or 1 here: one result per message). */
let refusedItems = new Uint8Array(1 << 16);
const counters = { messages: 0, fullSets: 0, upserts: 0, removes: 0, refusalCodes: {} };
const skipped = { notConnected: 0, late: 0, unassigned: 0 };
let probing = null;

/** Applies one `probes` message to the agent's held checks (monitor id → revision). */
export function holdAssignments(agent, message) {
  counters.messages += 1;
  if (message?.full) {
    counters.fullSets += 1;
    agent.probes.clear();
  }
  for (const assignment of message?.upsert ?? []) {
    counters.upserts += 1;
    agent.probes.set(assignment.monitor_id, assignment.revision);
  }
  for (const monitorId of message?.remove ?? []) {
    counters.removes += 1;
    agent.probes.delete(monitorId);
  }
}

/** Checks held by the fleet's agents, summed. */
export function heldCount(agents) {
  return agents.reduce((sum, agent) => sum + agent.probes.size, 0);
}

function sendResult(agent, monitorId) {
  const result = {
    monitor_id: monitorId,
    checked_at: Date.now(),
    ok: true,
    status_code: null,
    response_time: 5 + Math.floor(Math.random() * 46),
    error: null,
  };
  const slot = sends.record(result.checked_at);
  if (slot >= refusedItems.length) {
    const bigger = new Uint8Array(sends.sentAt.length);
    bigger.set(refusedItems);
    refusedItems = bigger;
  }
  refusedItems[slot] = 0;
  agent.socket
    .timeout(ACK_TIMEOUT_MS)
    .emitWithAck('probe.results', [result])
    .then(
      (ack) => {
        if (ack?.ok) {
          sends.ackMs[slot] = Date.now() - result.checked_at;
          refusedItems[slot] = Math.min(255, ack.refused?.length ?? 0);
        } else {
          sends.ackMs[slot] = -2;
          const code = ack?.code ?? 'unknown';
          counters.refusalCodes[code] = (counters.refusalCodes[code] ?? 0) + 1;
        }
      },
      () => {
        sends.ackMs[slot] = -1;
      },
    );
}

/**
 * Sends every held check of every agent once per interval on a fixed spread: check k (by monitor id) of the agent
 * with global index i at startAt + ((k × total + i) / (total × perAgent)) × interval, so each agent's own checks
 * are interval / perAgent apart and the fleet's results fall evenly over the interval (as the reports do). The
 * slots are walked in phase order with one timer aimed at the next one due.
 */
export function startProbing(agents, { startAt, intervalS, total, perAgent }) {
  const intervalMs = intervalS * 1000;
  const slots = [];
  for (const agent of agents) {
    const ids = [...agent.probes.keys()].sort((a, b) => a - b);
    ids.forEach((monitorId, k) => {
      const phase = (((k * total + agent.index) / (total * perAgent)) % 1) * intervalMs;
      slots.push({ agent, monitorId, phaseMs: phase });
    });
  }
  slots.sort((a, b) => a.phaseMs - b.phaseMs);
  const state = { intervalMs, startAt, cycle: 0, cursor: 0, timer: null, stopped: false, slots: slots.length };
  probing = state;
  if (!slots.length) return state.slots;
  const due = () => state.startAt + state.cycle * state.intervalMs + slots[state.cursor].phaseMs;
  const tick = () => {
    if (state.stopped) return;
    const now = Date.now();
    // At most one interval's worth of results per tick (bounded), normally a handful.
    for (let budget = slots.length; budget > 0 && due() <= now; budget -= 1) {
      const { agent, monitorId } = slots[state.cursor];
      const slotAt = due();
      state.cursor += 1;
      if (state.cursor === slots.length) {
        state.cursor = 0;
        state.cycle += 1;
      }
      // A result more than one interval behind its slot is dropped rather than sent in a burst.
      if (now - slotAt > state.intervalMs) skipped.late += 1;
      else if (!agent.socket?.connected || !agent.helloed) skipped.notConnected += 1;
      // Taken from the agent since the start (a full set after a reconnect may no longer hold it).
      else if (!agent.probes.has(monitorId)) skipped.unassigned += 1;
      else sendResult(agent, monitorId);
    }
    state.timer = setTimeout(tick, Math.max(1, due() - Date.now()));
  };
  state.timer = setTimeout(tick, Math.max(0, startAt - Date.now()));
  return state.slots;
}

export function stopProbing() {
  if (!probing) return;
  probing.stopped = true;
  clearTimeout(probing.timer);
}

/** Results sent in [from, to) by send time: counts and the acknowledged ones' latencies; null when never started. */
export function probeStats(from, to, agents) {
  if (!probing) return null;
  const latencies = [];
  let inWindow = 0;
  let acked = 0;
  let refused = 0;
  let rejected = 0;
  let timedOut = 0;
  let pending = 0;
  for (let i = 0; i < sends.count; i += 1) {
    if (sends.sentAt[i] < from || sends.sentAt[i] >= to) continue;
    inWindow += 1;
    const ms = sends.ackMs[i];
    if (Number.isNaN(ms)) pending += 1;
    else if (ms === -1) timedOut += 1;
    else if (ms === -2) rejected += 1;
    else {
      acked += 1;
      refused += refusedItems[i];
      latencies.push(ms);
    }
  }
  return {
    slots: probing.slots,
    held: heldCount(agents),
    sentTotal: sends.count,
    inWindow,
    acked,
    refused,
    rejected,
    timedOut,
    pending,
    latencies,
    skipped: { ...skipped },
    counters: { ...counters, refusalCodes: { ...counters.refusalCodes } },
  };
}

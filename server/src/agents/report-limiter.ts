import { Injectable } from '@nestjs/common';
import { AGENT_LIMITS } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';

/** Live messages (a hello, a report, one xugou status) an agent may send at once beyond its rhythm. */
export const LIVE_BURST = 20;
/** Reports one agent may deliver at once as backlogs: a full agent buffer, a day away at one a minute. */
export const BACKLOG_BURST = AGENT_LIMITS.bufferMax;
/** Tokens each bucket regains per reporting interval: twice the rhythm, so jitter or a late timer never trips it. */
export const REFILL_PER_INTERVAL = 2;
/** Agents whose buckets are kept; the one heard from least recently is forgotten first (it comes back full). */
export const MAX_TRACKED = 100_000;

export type MessageKind = 'live' | 'backlog';
export type Verdict = { ok: true } | { ok: false; retryAfterMs: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Per-agent token buckets tied to the agent's interval: one for live messages (hello, report) with a small burst,
 * one for backlog reports sized to what an agent can have buffered. A message over its bucket is refused whole,
 * before any validation or database work, with the time after which it would pass. Memory is bounded: one entry
 * per agent heard from (agents are authenticated rows), at most `MAX_TRACKED`, dropped when the agent is deleted.
 */
@Injectable()
export class ReportLimiter {
  private readonly entries = new Map<number, Record<MessageKind, Bucket>>();
  /** Messages refused since start, for `/api/metrics`. */
  refused = 0;
  maxTracked = MAX_TRACKED;

  get tracked(): number {
    return this.entries.size;
  }

  take(agentId: number, kind: MessageKind, cost: number, intervalSeconds: number, now = Date.now()): Verdict {
    const entry = this.entry(agentId, now);
    const bucket = entry[kind];
    const capacity = kind === 'live' ? LIVE_BURST : BACKLOG_BURST;
    const perMs = REFILL_PER_INTERVAL / (Math.max(AGENT_LIMITS.intervalMin, intervalSeconds) * 1000);
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    if (cost <= bucket.tokens) {
      bucket.tokens -= cost;
      return { ok: true };
    }
    this.refused += 1;
    return { ok: false, retryAfterMs: Math.ceil((Math.min(cost, capacity) - bucket.tokens) / perMs) };
  }

  /** Every instance: the agent may have reported to any of them. */
  @OnEvent('agent.deleted', { everyInstance: true })
  forget({ agent }: Pick<EventMap['agent.deleted'], 'agent'>): void {
    this.entries.delete(agent.id);
  }

  private entry(agentId: number, now: number): Record<MessageKind, Bucket> {
    let entry = this.entries.get(agentId);
    if (entry) this.entries.delete(agentId);
    else entry = { live: { tokens: LIVE_BURST, at: now }, backlog: { tokens: BACKLOG_BURST, at: now } };
    // Re-inserted on every use, so the map's first key is the agent heard from least recently.
    this.entries.set(agentId, entry);
    if (this.entries.size > this.maxTracked) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

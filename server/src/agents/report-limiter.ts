import { Injectable } from '@nestjs/common';
import { AGENT_LIMITS, MONITOR_LIMITS, PROBE_LIMITS } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { type BucketPolicy, bucketPolicy } from '../common/limits/limit-store';
import { Limiter } from '../common/limits/limiter';

/** Live messages (a hello, a report, one xugou status) an agent may send at once beyond its rhythm. */
export const LIVE_BURST = 20;
/** Reports one agent may deliver at once as backlogs: a full agent buffer, a day away at one a minute. */
export const BACKLOG_BURST = AGENT_LIMITS.bufferMax;
/** Tokens each bucket regains per reporting interval: twice the rhythm, so jitter or a late timer never trips it. */
export const REFILL_PER_INTERVAL = 2;
/** Check results one agent may deliver at once: its whole buffer, sent back after the server was away. */
export const PROBE_BURST = PROBE_LIMITS.bufferMax;
/**
 * Check results regained per minute, whatever the agent's report interval: twice the most an agent can owe (every
 * assignment it may run at the shortest monitor interval), so only a flood beyond any real set is refused.
 */
export const PROBE_PER_MINUTE = (REFILL_PER_INTERVAL * PROBE_LIMITS.assignmentsMax * 60) / MONITOR_LIMITS.intervalMin;
/** Agents whose buckets are kept; the one heard from least recently is forgotten first (it comes back full). */
export const MAX_TRACKED = 100_000;

/** `probe`: check results (protocol 2), counted one token per result, as backlogs count their reports. */
export type MessageKind = 'live' | 'backlog' | 'probe';
export type Verdict = { ok: true } | { ok: false; retryAfterMs: number };

const OK: Verdict = { ok: true };

/**
 * Per-agent token buckets tied to the agent's interval: one for live messages (hello, report) with a small burst,
 * one for backlog reports sized to what an agent can have buffered, and one for check results sized to the checks it
 * may be assigned (its own bucket: results come by the thousand, counted one each). A message over its bucket is
 * refused whole, before any validation or database work, with the time after which it would pass.
 *
 * Kept in the `Limiter`'s memory store, synchronously and per instance, never in Redis: an agent's socket lives on
 * one instance, and at a thousand agents reporting every few seconds a Redis round trip per message would cost more
 * than the limit protects (an HTTP agent behind a balancer may get up to the number of instances times its rate).
 * Allocation-light: the agent id is the key, and the policies (one per interval in use) are made once.
 * Memory is bounded: one entry per agent heard from (agents are authenticated rows), at most `maxTracked` per kind,
 * dropped when the agent is deleted.
 */
@Injectable()
export class ReportLimiter {
  /** Messages refused since start, for `/api/metrics`. */
  refused = 0;
  /** Agents kept per kind (set before the first message; the policies are made with it). */
  maxTracked = MAX_TRACKED;
  private readonly policies = new Map<number, Record<MessageKind, BucketPolicy>>();

  constructor(private readonly limiter: Limiter) {}

  /** Agents whose live budget is known (the bound applies to each kind). */
  get tracked(): number {
    return this.limiter.local.size(this.policiesFor(AGENT_LIMITS.intervalMin).live);
  }

  take(agentId: number, kind: MessageKind, cost: number, intervalSeconds: number, now = Date.now()): Verdict {
    const waitMs = this.limiter.local.take(this.policiesFor(intervalSeconds)[kind], agentId, cost, now);
    if (waitMs === 0) return OK;
    this.refused += 1;
    return { ok: false, retryAfterMs: waitMs };
  }

  /** Every instance: the agent may have reported to any of them. */
  @OnEvent('agent.deleted', { everyInstance: true })
  forget({ agent }: Pick<EventMap['agent.deleted'], 'agent'>): void {
    for (const policy of Object.values(this.policiesFor(AGENT_LIMITS.intervalMin))) this.limiter.local.clear(policy, agent.id);
  }

  /** The policies of an interval (the key spaces are shared: only the refill differs), made on first use. */
  private policiesFor(intervalSeconds: number): Record<MessageKind, BucketPolicy> {
    let policies = this.policies.get(intervalSeconds);
    if (!policies) {
      const perMinute = (REFILL_PER_INTERVAL * 60) / Math.max(AGENT_LIMITS.intervalMin, intervalSeconds);
      const maxKeys = this.maxTracked;
      policies = {
        live: bucketPolicy('agent-live', { burst: LIVE_BURST, perMinute, maxKeys }),
        backlog: bucketPolicy('agent-backlog', { burst: BACKLOG_BURST, perMinute, maxKeys }),
        probe: bucketPolicy('agent-probe', { burst: PROBE_BURST, perMinute: PROBE_PER_MINUTE, maxKeys }),
      };
      // Intervals are whole seconds within AGENT_LIMITS, so this map stays small.
      this.policies.set(intervalSeconds, policies);
    }
    return policies;
  }
}

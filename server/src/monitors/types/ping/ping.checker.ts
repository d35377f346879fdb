import { MONITOR_TYPE_LIMITS } from '@vigil/proto';
import { resolveAllowed, type OutboundGuards } from '../../../common/outbound';
import type { Checker, CheckTarget, Endpoint, ProbeResult } from '../../checkers/checker';
import { FpingRun, HostReplies, runFping, SEND_INTERVAL_MS } from './fping';
import { describeFailure } from '../../checkers/failure';
import { withinTimeout } from '../../checkers/socket';

/**
 * Checks started within this long of each other share one fping process: each process costs the server a fork and
 * fping its start. Scheduled ping checks are due on a grain (slotGrainMs: 10 s, or 5 s or whole seconds for an
 * interval that is no multiple of it), so those of one grain start in one scheduler tick and this only needs to cover a tick or two
 * (figures in docs/decisions.md, "Ping").
 */
const GATHER_MS = 100;
/** Addresses per fping process at most: at 1 ms between requests, one round of them takes a quarter second. */
const BATCH_MAX = 250;
/** Kept free of the timeout for starting fping and reading its output. */
const MARGIN_MS = 150;
/** Between two requests to one address at most (as `ping`), and at least (fping's floor without root). */
const PERIOD_MAX_MS = 1000;
const PERIOD_MIN_MS = 20;

interface Waiting {
  address: string;
  /** performance.now() by which the whole check must end. */
  deadline: number;
  /** null: fping printed nothing for the address (it was stopped at the deadline). `sentAt`: when fping started. */
  settle: (outcome: HostReplies | Error | null, sentAt: Date) => void;
}

interface Batch {
  count: number;
  waiting: Waiting[];
  /** The distinct addresses of `waiting`: each gets one set of echo requests. */
  addresses: Set<string>;
  timer: NodeJS.Timeout;
}

type Runner = (run: FpingRun) => Promise<Map<string, HostReplies>>;

/**
 * ICMP echo through fping, batched: the checks due within GATHER_MS of each other (with the same packet count) go
 * to one fping process, which pings every address in turn and prints each one's round trips. A process per check
 * costs several times more CPU at thousands of targets (figures in docs/decisions.md). Each check resolves its name
 * itself, so the outbound policy judges the address that is pinged. Observed: `responseTime` is the average round trip,
 * `packetLoss` the percentage lost; the check is up when at least one reply came.
 */
export class PingChecker implements Checker<'ping'> {
  readonly type = 'ping';
  readonly batched = true;
  private readonly outbound: OutboundGuards;
  private readonly batches = new Map<number, Batch>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    deps: { outbound: OutboundGuards },
    private readonly runner: Runner = runFping,
  ) {
    this.outbound = deps.outbound;
  }

  /** ICMP has no port: only the deny lists can refuse a ping. */
  endpoint(target: CheckTarget<'ping'>): Endpoint {
    return { host: target.hostname, port: 0 };
  }

  async check(target: CheckTarget<'ping'>): Promise<ProbeResult> {
    const started = performance.now();
    const checkedAt = new Date();
    const count = Math.min(
      Math.max(Math.round(target.packetCount) || 1, MONITOR_TYPE_LIMITS.packetCountMin),
      MONITOR_TYPE_LIMITS.packetCountMax,
    );
    const failure = (error: string): ProbeResult => ({ ok: false, statusCode: null, responseTime: null, error, checkedAt, observed: {} });
    let address: string;
    try {
      ({ address } = await withinTimeout(resolveAllowed(target.hostname, this.outbound.guard(target.scope)), target.timeout * 1000));
    } catch (error) {
      return failure(describeFailure(error, target.timeout));
    }
    const { outcome, sentAt } = await new Promise<{ outcome: HostReplies | Error | null; sentAt: Date }>((resolve) =>
      this.enqueue(count, {
        address,
        deadline: started + target.timeout * 1000,
        settle: (outcome, sentAt) => resolve({ outcome, sentAt }),
      }),
    );
    // The check is the echo requests: its time is when they went out, after the batch gathered.
    if (outcome === null) return { ...failure(`Timeout after ${target.timeout} s`), checkedAt: sentAt };
    if (outcome instanceof Error) return { ...failure(outcome.message), checkedAt: sentAt };
    return { ...pingResult(outcome, target.timeout), checkedAt: sentAt };
  }

  /** Starts what is gathered at once and waits for every fping process to end (each within its checks' timeout). */
  async close(): Promise<void> {
    for (const count of [...this.batches.keys()]) this.flush(count);
    await Promise.allSettled([...this.running]);
  }

  private enqueue(count: number, waiting: Waiting): void {
    let batch = this.batches.get(count);
    if (!batch) {
      // A short timeout must not spend its time gathering.
      const gather = Math.max(0, Math.min(GATHER_MS, (waiting.deadline - performance.now()) / 4));
      batch = { count, waiting: [], addresses: new Set(), timer: setTimeout(() => this.flush(count), gather) };
      this.batches.set(count, batch);
    }
    batch.waiting.push(waiting);
    batch.addresses.add(waiting.address);
    if (batch.addresses.size >= BATCH_MAX) this.flush(count);
  }

  private flush(count: number): void {
    const batch = this.batches.get(count);
    if (!batch) return;
    this.batches.delete(count);
    clearTimeout(batch.timer);
    const run = this.run(batch).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async run(batch: Batch): Promise<void> {
    const addresses = [...batch.addresses];
    // The batch's tightest deadline sets the pace: `count` periods, plus sending to every address once, must fit in
    // what is left of it.
    const budget = Math.min(...batch.waiting.map((entry) => entry.deadline)) - performance.now() - MARGIN_MS;
    const spread = addresses.length * SEND_INTERVAL_MS;
    const periodMs = Math.min(PERIOD_MAX_MS, Math.max(PERIOD_MIN_MS, Math.floor((budget - spread) / batch.count)));
    const sentAt = new Date();
    try {
      const limitMs = Math.max(budget, periodMs * batch.count + spread);
      const replies = await this.runner({ addresses, count: batch.count, periodMs, limitMs });
      for (const entry of batch.waiting) entry.settle(replies.get(entry.address) ?? null, sentAt);
    } catch (error) {
      for (const entry of batch.waiting) entry.settle(error instanceof Error ? error : new Error(String(error)), sentAt);
    }
  }
}

/** Maps one address's round trips to the result: the average of the replies, the share lost, up with one reply. */
export function pingResult(replies: HostReplies, timeoutSeconds: number): Omit<ProbeResult, 'checkedAt'> {
  const received = replies.rtts.filter((rtt): rtt is number => rtt !== null);
  const packetLoss = Math.round(((replies.rtts.length - received.length) / Math.max(1, replies.rtts.length)) * 100);
  if (received.length === 0) {
    const error = replies.note ?? (replies.rtts.length ? '100% packet loss' : `Timeout after ${timeoutSeconds} s`);
    return { ok: false, statusCode: null, responseTime: null, error, observed: { packetLoss: 100 } };
  }
  const average = received.reduce((sum, rtt) => sum + rtt, 0) / received.length;
  return { ok: true, statusCode: null, responseTime: Math.round(average), error: null, observed: { packetLoss } };
}

import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { BatchQueue, faultText, storeIsolating } from '../common/batch-queue';
import { Histogram } from '../common/histogram';
import { MonitorsRepository, RecordedResult, ResultInput } from './monitors.repository';

const FLUSH_EVERY_MS = 200;
const MAX_BATCH = 500;
/** Results waiting at most (about 6 s of checks at 50,000 monitors per minute); then producers wait for room. */
const MAX_WAITING = 10 * MAX_BATCH;

interface Pending {
  input: ResultInput;
  /** When the result was handed over (performance.now()). */
  queuedAt: number;
  resolve: (result: RecordedResult | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Collects check results and stores them in batches (one transaction per batch, not per check, one batch at a time
 * in the order handed over); the repository raises the events of what it stored.
 * At most MAX_WAITING results wait; the scheduler starts checks only while there is room (see CheckSlots).
 */
@Injectable()
export class CheckResultsWriter implements BeforeApplicationShutdown {
  private readonly logger = new Logger(CheckResultsWriter.name);
  private readonly queue = new BatchQueue<Pending>({ everyMs: FLUSH_EVERY_MS, maxBatch: MAX_BATCH, capacity: MAX_WAITING }, (batch) =>
    this.store(batch),
  );
  readonly capacity = MAX_WAITING;
  /** Rows written since start, for the benchmark. */
  written = 0;
  /** Results the database refused, left out of their batch. */
  dropped = 0;
  /** Per result: from being handed over until its batch starts storing, and how long storing that batch took. */
  readonly writeWait = new Histogram();
  readonly writes = new Histogram();

  constructor(private readonly monitors: MonitorsRepository) {}

  /** Results handed over and not stored yet. */
  get waiting(): number {
    return this.queue.waiting;
  }

  /** Results that would still be taken at once; beyond it `record` waits for room. */
  get room(): number {
    return this.queue.room;
  }

  /** Resolves once the result is stored (null when its monitor was deleted meanwhile), in the order handed over. */
  record(input: ResultInput, { immediately = false } = {}): Promise<RecordedResult | null> {
    return new Promise((resolve, reject) => void this.queue.push({ input, queuedAt: performance.now(), resolve, reject }, { immediately }));
  }

  /** One transaction for the batch; a result the database refuses is left out so it never costs another monitor its. */
  private async store(batch: Pending[]): Promise<void> {
    const started = performance.now();
    for (const pending of batch) this.writeWait.observe(started - pending.queuedAt);
    try {
      const refused = await storeIsolating(batch, (part) => this.storePart(part));
      if (!refused.length) return;
      this.dropped += refused.length;
      const monitors = [...new Set(refused.map((r) => r.item.input.monitorId))].join(', ');
      this.logger.error(
        `Dropped ${refused.length} of ${batch.length} check results the database refused (monitors ${monitors}): ${faultText(refused[0].error)}`,
      );
      for (const { item, error } of refused) item.reject(error);
    } catch (error) {
      this.logger.error(`Storing ${batch.length} check results failed: ${(error as Error).message}`);
      // Parts stored before the failure are already resolved; settling them again does nothing.
      for (const pending of batch) pending.reject(error);
    } finally {
      const took = performance.now() - started;
      for (let i = 0; i < batch.length; i += 1) this.writes.observe(took);
    }
  }

  private async storePart(part: Pending[]): Promise<void> {
    const { recorded } = await this.monitors.recordResults(part.map((p) => p.input));
    this.written += recorded.length;
    const byInput = new Map(recorded.map((r) => [r.received, r]));
    for (const pending of part) pending.resolve(byInput.get(pending.input) ?? null);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.drain();
  }
}

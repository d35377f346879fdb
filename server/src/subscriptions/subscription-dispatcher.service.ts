import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { JobClaims } from '../database/job-claims';
import { SubscriptionDeliveriesRepository, type ClaimedSubscriptionDelivery } from './subscription-deliveries.repository';
import { SubscriptionSender } from './subscription-sender';
import { SubscriptionsRepository } from './subscriptions.repository';

/** Due deliveries are looked for this often, and at once after a subscription or an event queued some. */
const POLL_MS = 2000;
/** Deliveries in flight at once in this process: a page's subscribers are many mails to one SMTP server. */
const CONCURRENCY = 8;
const PRUNE_EVERY_MS = 3_600_000;
const HISTORY_DAYS = 30;

/**
 * Delivers subscription notices and confirmation requests from their outbox: claims due rows (skipping those
 * another instance holds), sends each, then marks it sent, retries it with backoff or gives it up. Pending rows
 * survive restarts; a row whose instance died is taken over when its lease runs out.
 */
@Injectable()
export class SubscriptionDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SubscriptionDispatcher.name);
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly deliveries: SubscriptionDeliveriesRepository,
    private readonly subscribers: SubscriptionsRepository,
    private readonly sender: SubscriptionSender,
    private readonly claims: JobClaims,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.pass;
  }

  /** Rows were committed: look now rather than at the next poll. */
  nudge(): void {
    if (this.pass) this.again = true;
    else this.schedule(20);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pass = this.run().finally(() => {
        this.pass = null;
        this.schedule(this.again ? 0 : POLL_MS);
        this.again = false;
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Keeps up to CONCURRENCY deliveries in flight, claiming more as places free up, until nothing due is left. */
  private async run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    try {
      // The lease outlasts an attempt's time limit, so a live instance never loses a row it is still sending.
      const leaseMs = this.config.notifications.timeoutMs * 3 + 5000;
      for (;;) {
        if (this.stopped) break;
        const free = CONCURRENCY - inFlight.size;
        const claimed = free > 0 ? await this.deliveries.claim(free, leaseMs) : [];
        for (const delivery of claimed) {
          const attempt = this.deliver(delivery)
            .catch((error: unknown) =>
              this.logger.warn({
                message: `Subscription delivery ${delivery.id} not recorded: ${messageOf(error)}`,
                deliveryId: delivery.id,
              }),
            )
            .finally(() => inFlight.delete(attempt));
          inFlight.add(attempt);
        }
        if (inFlight.size === 0) break;
        if (claimed.length === 0 || inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      }
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.claims.run('prune.subscriptions', PRUNE_EVERY_MS, async () => {
          await this.deliveries.prune(HISTORY_DAYS);
          await this.subscribers.pruneUnconfirmed();
        });
      }
    } catch (error) {
      this.logger.warn(`Subscription delivery pass failed: ${messageOf(error)}`);
    } finally {
      await Promise.allSettled(inFlight);
    }
  }

  private async deliver(delivery: ClaimedSubscriptionDelivery): Promise<void> {
    const outcome = await this.sender.send(delivery);
    // Named by ids only: an address is personal data and stays out of the log.
    if (outcome.status !== 'sent')
      this.logger.warn({
        message: `Subscription delivery ${delivery.id} (${delivery.kind}) attempt ${delivery.attempts} failed: ${outcome.error}`,
        deliveryId: delivery.id,
      });
    await this.deliveries.finish(delivery.id, delivery.attempts, outcome);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

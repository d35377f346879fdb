import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MESSAGES, targetPagePath, validateChannelConfig, type ChannelType } from '@vigil/proto';
import { Agent } from 'undici';
import { guardedConnector, type AddressGuard } from '../common/outbound';
import { OutboundPolicy } from '../common/outbound-policy';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { JobClaims } from '../database/job-claims';
import { WebPushService } from '../web-push/web-push.service';
import { afterFailure, describeFailure } from './delivery';
import { combineMessages } from './groups';
import { NotificationsRepository } from './notifications.repository';
import { OutboxRepository, type AttemptRecord, type ClaimedDelivery, type Outcome } from './outbox.repository';
import { providerFor, type NotificationMessage, type SendContext } from './providers';

/** Due notifications are looked for this often, and at once after an event wrote some. */
const POLL_MS = 1000;
/** Attempts in flight at once in this process. */
const CONCURRENCY = 32;
/** Attempts in flight at once to one channel, so a slow or dead destination holds only these places. */
const PER_CHANNEL = 4;
const PRUNE_EVERY_MS = 3_600_000;
const HISTORY_DAYS = 90;

/**
 * Delivers the outbox: claims due rows (skipping those another instance holds), sends each with a time limit, records
 * the attempt and either marks it sent, schedules a retry with backoff, or gives it up. A row whose instance died
 * mid-delivery is taken over once its lease runs out; pending rows survive restarts.
 */
@Injectable()
export class NotificationDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(NotificationDispatcher.name);
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastPrune = 0;
  /** For /api/metrics. */
  readonly stats = { delivered: 0, failedAttempts: 0, givenUp: 0 };
  /**
   * Every delivery and test goes through it, so the outbound policy applies to each connection: an admin's rules, since
   * a channel answers its test with a status and a short reason only, never what the destination sent.
   */
  private readonly agent: Agent;
  /** The rules that agent applies, for providers that open their own sockets (SMTP). */
  private readonly guard: AddressGuard;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly notifications: NotificationsRepository,
    private readonly claims: JobClaims,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    outbound: OutboundPolicy,
    private readonly webPush: WebPushService,
  ) {
    this.guard = outbound.guard('admin');
    this.agent = new Agent({ connect: guardedConnector(this.guard) });
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.pass;
    await this.agent.close().catch(() => undefined);
  }

  /** New rows were committed (or are about to be): look soon rather than at the next poll. */
  nudge(): void {
    if (this.pass) this.again = true;
    else this.schedule(50);
  }

  /** How one delivery of a channel type is sent: its service's base address, the policy's HTTP agent and the delivery's key. */
  contextFor(type: ChannelType, deliveryId: string): SendContext {
    const { apiUrls, timeoutMs } = this.config.notifications;
    return {
      apiUrl: apiUrls[type] ?? '',
      timeoutMs,
      now: Date.now,
      dispatcher: this.agent,
      guard: this.guard,
      deliveryId,
      webPush: this.webPush,
    };
  }

  /** The message with a link to its monitor's or agent's page, when PUBLIC_URL says where this site is. */
  withLink(message: NotificationMessage): NotificationMessage {
    const path = targetPagePath(message.target);
    return path && this.config.publicUrl ? { ...message, link: `${this.config.publicUrl}${path}` } : message;
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

  /**
   * One pass: keeps up to CONCURRENCY attempts in flight (PER_CHANNEL per channel), claiming more as places free up,
   * until nothing due is left to claim and every attempt has finished. Attempts start as soon as they are claimed,
   * so a lease never runs while a row waits here.
   */
  private async run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    const perChannel = new Map<number, number>();
    try {
      // The lease outlasts an attempt's time limit, so a live instance never loses a row it is still sending.
      const leaseMs = this.config.notifications.timeoutMs * 3 + 5000;
      for (;;) {
        if (this.stopped) break;
        const free = CONCURRENCY - inFlight.size;
        const full = [...perChannel].filter(([, n]) => n >= PER_CHANNEL).map(([id]) => id);
        const { alertSecondMs } = this.config.notifications;
        // Grouping channels first (each whole storm is one attempt), then single rows of the other channels.
        const groups = free > 0 ? await this.outbox.claimGroups(leaseMs, alertSecondMs, full, free) : [];
        const left = free - groups.length;
        const claimed = [...groups, ...(left > 0 ? await this.outbox.claim(left, leaseMs, PER_CHANNEL, perChannel) : [])];
        for (const delivery of claimed) {
          const channel = delivery.channelId;
          if (channel !== null) perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
          const attempt = this.deliver(delivery)
            .catch((error) =>
              this.logger.warn({
                message: `Notification ${delivery.id} not recorded: ${messageOf(error)}`,
                deliveryId: delivery.id,
                channelId: channel,
              }),
            )
            .finally(() => {
              inFlight.delete(attempt);
              if (channel !== null) perChannel.set(channel, (perChannel.get(channel) ?? 1) - 1);
            });
          inFlight.add(attempt);
        }
        if (inFlight.size === 0) break;
        // Full, or nothing more claimable until an attempt frees its channel's place: wait for one to finish.
        if (claimed.length === 0 || inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      }
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        // Instances sharing the database take turns, as the other pruning jobs do.
        await this.claims.run('prune.notifications', PRUNE_EVERY_MS, () => this.notifications.pruneHistory(HISTORY_DAYS));
      }
    } catch (error) {
      this.logger.warn(`Notification delivery pass failed: ${messageOf(error)}`);
    } finally {
      await Promise.allSettled(inFlight);
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { channel } = delivery;
    if (!channel) return this.giveUp(delivery, 'Channel deleted');
    if (!channel.enabled) return this.giveUp(delivery, 'Channel disabled');
    const provider = providerFor(channel.type);
    const valid = validateChannelConfig(channel.type, channel.config);
    if (!valid.ok) return this.giveUp(delivery, `${valid.field ?? 'config'}: ${MESSAGES[valid.code]}`);

    const started = performance.now();
    let record: AttemptRecord;
    let outcome: Outcome;
    try {
      // Every attempt of this row carries the row's key, so a receiver can drop what a retry or a takeover repeats.
      const message = delivery.group
        ? combineMessages(
            delivery.group.map((row) => this.withLink(row.message)),
            channel.language,
          )
        : this.withLink(delivery.message);
      const answer = await provider.send(message, valid.config, this.contextFor(channel.type, delivery.deliveryId));
      record = { ok: true, httpStatus: answer.status, detail: answer.detail, durationMs: elapsed(started) };
      outcome = { status: 'sent' };
    } catch (error) {
      const failure = describeFailure(error);
      record = { ok: false, ...failure, durationMs: elapsed(started) };
      const { maxAttempts, retryBaseMs } = this.config.notifications;
      outcome = afterFailure(error, delivery.attempts, maxAttempts, retryBaseMs);
      this.logger.warn({
        message: `Notification ${delivery.id} (${channel.type}) attempt ${delivery.attempts} failed: ${failure.detail}`,
        deliveryId: delivery.id,
        channelId: delivery.channelId,
      });
    }
    await this.finish(delivery, record, outcome);
    this.count(outcome);
  }

  /** A grouped message's rows are all marked alike. */
  private finish(delivery: ClaimedDelivery, record: AttemptRecord, outcome: Outcome): Promise<void> {
    if (delivery.group) return this.outbox.finishGroup(delivery.group, record, outcome);
    return this.outbox.finish(delivery.id, delivery.attempts, record, outcome);
  }

  private count(outcome: Outcome): void {
    if (outcome.status === 'sent') this.stats.delivered += 1;
    else this.stats.failedAttempts += 1;
    if (outcome.status === 'failed') this.stats.givenUp += 1;
  }

  private async giveUp(delivery: ClaimedDelivery, reason: string): Promise<void> {
    await this.finish(delivery, { ok: false, httpStatus: null, detail: reason, durationMs: 0 }, { status: 'failed' });
    this.count({ status: 'failed' });
  }
}

const elapsed = (started: number) => Math.round(performance.now() - started);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

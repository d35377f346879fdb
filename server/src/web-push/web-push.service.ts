import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  WEB_PUSH_SUBSCRIPTIONS_PER_USER,
  type WebPushAudience,
  type WebPushPayload,
  type WebPushSubscriptionDto,
  type WebPushSubscriptionRequest,
} from '@vigil/proto';
import { createHash } from 'node:crypto';
import { Agent } from 'undici';
import { generateVAPIDKeys } from 'web-push';
import { badRequest, conflict, notFound } from '../common/api-exception';
import type { AuthUser } from '../common/decorators';
import { guardedConnector } from '../common/outbound';
import { OutboundPolicy } from '../common/outbound-policy';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { DeliveryError, type ProviderAnswer } from '../notifications/providers/provider';
import { SettingsRepository } from '../settings/settings.repository';
import { shortUserAgent } from './user-agent';
import { WebPushRepository } from './web-push.repository';
import { sendWebPush, type PushOptions, type VapidIdentity } from './web-push.sender';

/** The `settings` key of the VAPID key pair. */
const VAPID_SETTING = 'web_push_vapid';
/** Browsers sent to at once for one message. */
const CONCURRENCY = 8;

/**
 * Browser notifications: the server's VAPID keys, each user's subscribed browsers, and delivery of one message to
 * every browser of an audience (the `webpush` channel's provider calls `deliver` through its SendContext).
 */
@Injectable()
export class WebPushService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(WebPushService.name);
  private vapid: VapidIdentity;
  /**
   * Endpoints come from any signed-in user, so deliveries connect under the user rules (USER_OUTBOUND_DENY besides
   * OUTBOUND_DENY and Vigil's own services), as a user's monitor does: a subscription cannot aim the server at itself.
   */
  private readonly agent: Agent;

  constructor(
    private readonly subscriptions: WebPushRepository,
    private readonly settings: SettingsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    outbound: OutboundPolicy,
  ) {
    this.agent = new Agent({ connect: guardedConnector(outbound.guard('user')) });
  }

  async onModuleInit(): Promise<void> {
    // Generated once and kept in the database, so every instance signs with the same key and subscriptions made
    // through one instance are accepted from all. The pair never changes afterwards, so it is read once.
    const keys = await this.settings.getOrCreate(VAPID_SETTING, generateVAPIDKeys());
    this.vapid = { subject: this.config.webPush.subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }

  publicKey(): string {
    return this.vapid.publicKey;
  }

  /** Stores this browser for the caller (moving it from another user if it was theirs); answers its id. */
  async subscribe(auth: AuthUser, body: WebPushSubscriptionRequest, userAgent: string | undefined): Promise<number> {
    if (!this.config.webPush.allowHttp && !body.endpoint.startsWith('https://')) throw badRequest('webPush.endpointInvalid');
    const id = await this.subscriptions.upsert(
      { userId: auth.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, userAgent: shortUserAgent(userAgent) },
      WEB_PUSH_SUBSCRIPTIONS_PER_USER,
    );
    if (id === null) throw conflict('webPush.tooMany');
    return id;
  }

  async list(auth: AuthUser): Promise<WebPushSubscriptionDto[]> {
    return (await this.subscriptions.listOwn(auth.id)).map((row) => ({
      id: row.id,
      created_at: new Date(row.created_at).toISOString(),
      user_agent: row.user_agent,
      origin: new URL(row.endpoint).origin,
      endpoint_hash: createHash('sha256').update(row.endpoint).digest('hex'),
    }));
  }

  /** Only the caller's own browser: another user's endpoint is answered as unknown. */
  async unsubscribe(auth: AuthUser, endpoint: string): Promise<void> {
    if (!(await this.subscriptions.deleteOwn(auth.id, endpoint))) throw notFound('webPush.notFound');
  }

  /**
   * Sends one message to every browser of the audience. Delivered when at least one push service took it ("Sent to 3
   * of 4 browsers"); subscriptions answered 404 or 410 are deleted. When none took it, the delivery fails, and is
   * retried if any browser's failure may pass (429, 5xx, network). No browser at all is a failure retrying cannot fix.
   */
  async deliver(audience: WebPushAudience, payload: WebPushPayload): Promise<ProviderAnswer> {
    const targets = await this.subscriptions.forAudience(audience);
    if (targets.length === 0) {
      throw new DeliveryError(
        audience === 'admins' ? 'No admin has enabled browser notifications' : 'No browser has enabled notifications',
        null,
        { retryable: false },
      );
    }
    const options: PushOptions = { vapid: this.vapid, timeoutMs: this.config.notifications.timeoutMs, dispatcher: this.agent };
    let sent = 0;
    let gone = 0;
    const failures: DeliveryError[] = [];
    await forEachLimited(targets, CONCURRENCY, async (target) => {
      try {
        if ((await sendWebPush(target, payload, options)) === 'sent') {
          sent += 1;
          return;
        }
        gone += 1;
        await this.subscriptions.delete(target.id);
      } catch (error) {
        failures.push(error instanceof DeliveryError ? error : new DeliveryError('Request failed'));
      }
    });
    if (gone > 0) this.logger.log(`Removed ${gone} browser subscription(s) their push service no longer knows`);
    const summary = `${sent} of ${targets.length} browsers`;
    if (sent > 0) return { status: 201, detail: `Sent to ${summary}` };
    if (failures.length === 0) {
      throw new DeliveryError(`Sent to ${summary}: every subscription had expired and was removed`, null, { retryable: false });
    }
    const first = failures[0];
    throw new DeliveryError(`Sent to ${summary}: ${first.message}`, first.status, {
      retryable: failures.some((failure) => failure.retryable),
      retryAfterMs: first.retryAfterMs,
    });
  }
}

/** Runs `work` over the items with at most `limit` at a time. */
async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

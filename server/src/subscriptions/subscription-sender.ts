import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { SUBSCRIPTION_LIMITS, validateChannelConfig, type ChannelLanguage, type SubscriptionWebhookPayload } from '@vigil/proto';
import { Agent } from 'undici';
import { guardedConnector, type AddressGuard } from '../common/outbound';
import { OutboundPolicy } from '../common/outbound-policy';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { MailError } from '../mail/mail-failure';
import { sendMail } from '../mail/mail-transport';
import { afterFailure, describeFailure } from '../notifications/delivery';
import { DeliveryError } from '../notifications/providers';
import { postJson } from '../notifications/providers/http';
import type { ClaimedSubscriptionDelivery, DeliveryOutcome } from './subscription-deliveries.repository';
import { SubscriptionKey } from './subscription-key';
import { confirmationMail, noticeMail, unsubscribeHeaders, type MailParts } from './subscription-mail';
import { noticePayload, pageUrl } from './subscription-notices';
import { hashToken, randomToken } from './subscription-tokens';
import { SubscriptionsRepository } from './subscriptions.repository';

/** What a claimed delivery says and where its links lead, as one subscriber reads it. */
interface Rendered {
  mail: (language: ChannelLanguage) => MailParts;
  webhook: SubscriptionWebhookPayload;
  /** Mail headers (one-click unsubscribe) for notices. */
  headers?: Record<string, string>;
}

/** A delivery that cannot succeed as things are: given up at once, with the reason. */
class Unsendable extends Error {}

/**
 * Sends one subscription delivery. Email goes through the page's SMTP channel (its server, login and sender; the
 * subscriber the only recipient) under the same outbound rules as the channel's own mail. Webhooks are addresses a
 * visitor typed, so they get the rules of a `user`'s checks (USER_OUTBOUND_DENY on top: no loopback by default).
 */
@Injectable()
export class SubscriptionSender implements OnModuleDestroy {
  private readonly mailGuard: AddressGuard;
  private readonly webhookAgent: Agent;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    outbound: OutboundPolicy,
    private readonly key: SubscriptionKey,
    private readonly subscribers: SubscriptionsRepository,
  ) {
    this.mailGuard = outbound.guard('admin');
    this.webhookAgent = new Agent({ connect: guardedConnector(outbound.guard('user')) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.webhookAgent.close().catch(() => undefined);
  }

  /** Sends it and says what follows: sent, a retry later, or failed for good. Failure texts never hold the address. */
  async send(delivery: ClaimedSubscriptionDelivery): Promise<DeliveryOutcome> {
    try {
      const rendered = await this.render(delivery);
      if (!rendered) return { status: 'failed', error: 'Already confirmed; nothing to send' };
      if (delivery.kind === 'email') await this.mail(delivery, rendered);
      else await postJson(delivery.address, rendered.webhook, this.webhookContext(delivery));
      return { status: 'sent' };
    } catch (error) {
      if (error instanceof Unsendable) return { status: 'failed', error: error.message };
      const { detail } = describeFailure(error);
      const { maxAttempts, retryBaseMs } = this.config.notifications;
      const outcome = afterFailure(error, delivery.attempts, maxAttempts, retryBaseMs);
      const text = withoutAddress(detail, delivery.address);
      return outcome.status === 'retry' ? { status: 'retry', delayMs: outcome.delayMs, error: text } : { status: 'failed', error: text };
    }
  }

  /** The confirmation request (a fresh token, its hash stored first) or the notice; null when already confirmed. */
  private async render(delivery: ClaimedSubscriptionDelivery): Promise<Rendered | null> {
    const page = { ...delivery.page, url: pageUrl(delivery.baseUrl, delivery.page.slug) };
    if (!delivery.notice) {
      const token = randomToken();
      if (!(await this.subscribers.setConfirmToken(delivery.subscriberId, hashToken(token)))) return null;
      const confirmUrl = `${delivery.baseUrl}/api/subscriptions/confirm?token=${token}`;
      return {
        mail: (language) => confirmationMail(language, page.title, confirmUrl, SUBSCRIPTION_LIMITS.unconfirmedDays),
        webhook: { type: 'subscription.confirm', page, confirm_url: confirmUrl },
      };
    }
    const notice = delivery.notice;
    const unsubscribeUrl = `${delivery.baseUrl}/api/subscriptions/unsubscribe?token=${await this.key.unsubscribeToken(delivery.subscriberId)}`;
    return {
      mail: (language) => noticeMail(language, notice, page.url, unsubscribeUrl),
      webhook: noticePayload(notice, page, unsubscribeUrl),
      headers: unsubscribeHeaders(unsubscribeUrl),
    };
  }

  private async mail(delivery: ClaimedSubscriptionDelivery, rendered: Rendered): Promise<void> {
    const channel = delivery.channel;
    if (!channel || channel.type !== 'smtp') throw new Unsendable('The page has no SMTP channel for email subscriptions');
    if (!channel.enabled) throw new Unsendable("The page's SMTP channel is disabled");
    const valid = validateChannelConfig('smtp', channel.config);
    if (!valid.ok) throw new Unsendable(`The page's SMTP channel is invalid (${valid.field ?? 'config'})`);
    const config = valid.config;
    const parts = rendered.mail(channel.language);
    try {
      await sendMail(
        {
          host: config.host,
          port: config.port,
          security: config.security,
          username: config.username,
          password: config.password,
          tlsInsecure: config.tlsInsecure,
        },
        { from: config.from, to: [delivery.address], ...parts, deliveryId: delivery.deliveryId, headers: rendered.headers },
        { guard: this.mailGuard, timeoutMs: this.config.notifications.timeoutMs },
      );
    } catch (error) {
      if (error instanceof MailError) throw new DeliveryError(error.message, null, { retryable: error.retryable });
      throw error;
    }
  }

  private webhookContext(delivery: ClaimedSubscriptionDelivery) {
    return {
      apiUrl: '',
      timeoutMs: this.config.notifications.timeoutMs,
      now: Date.now,
      dispatcher: this.webhookAgent,
      deliveryId: delivery.deliveryId,
    };
  }
}

/** A failure text without the subscriber's address (an SMTP server's refusal names the recipient). */
export function withoutAddress(text: string, address: string): string {
  if (!address) return text;
  const pattern = new RegExp(address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  return text.replace(pattern, '[subscriber]');
}

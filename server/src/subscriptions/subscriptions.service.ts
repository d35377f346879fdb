import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PAGE_SLUG,
  PAGE_SIZE_DEFAULT,
  type SubscribeRequest,
  type SubscriberDto,
  type SubscriberKind,
  type SubscribersResponse,
} from '@vigil/proto';
import type { Request } from 'express';
import { AuditLog } from '../audit/audit-log.service';
import { badRequest, notFound, unauthorized } from '../common/api-exception';
import { bucketPolicy } from '../common/limits/limit-store';
import { Limiter } from '../common/limits/limiter';
import { urlEndpoint } from '../common/outbound';
import { OutboundPolicy } from '../common/outbound-policy';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { PAGE_UNLOCK, type PageUnlock } from './page-unlock';
import { SubscriptionDispatcher } from './subscription-dispatcher.service';
import { SubscriptionKey } from './subscription-key';
import { hashToken, unsubscribeToken } from './subscription-tokens';
import { SubscriptionsRepository, type SubscribablePage, type SubscriberRow } from './subscriptions.repository';

/** Subscription requests from one client address: 5 at once, then one every 6 minutes (10 an hour). */
export const SUBSCRIBE_PER_ADDRESS = bucketPolicy('subscribe-address', { burst: 5, perMinute: 10 / 60 });
/**
 * Subscription requests to one page from everywhere: 100 at once, then 2 a minute. Each may send a confirmation
 * mail through the page's SMTP server, so a crowd of addresses cannot make that server a spam relay.
 */
export const SUBSCRIBE_PER_PAGE = bucketPolicy('subscribe-page', { burst: 100, perMinute: 2, maxKeys: 10_000 });

/** The page a link leads back to, with a flag the page shows a notice for. */
export function pagePath(slug: string, flag: 'subscribed' | 'unsubscribed'): string {
  return slug === DEFAULT_PAGE_SLUG ? `/status?${flag}=1` : `/status/${encodeURIComponent(slug)}?${flag}=1`;
}

function toDto(row: SubscriberRow): SubscriberDto {
  return {
    id: row.id,
    kind: row.kind,
    address: row.address,
    confirmed: row.confirmed_at !== null,
    created_at: new Date(row.created_at).toISOString(),
    confirmed_at: row.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
  };
}

/**
 * Visitors subscribe to a page by email or webhook, double opt-in: a request stores the address unconfirmed and
 * queues one confirmation (again at most every SUBSCRIPTION_LIMITS.resendMinutes); nothing else goes to it until its
 * link is opened. Every answer to a request is the same, so it tells nobody whether an address is subscribed.
 * Addresses never appear in a public answer, a log line or the audit log; only admins list them.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly subscribers: SubscriptionsRepository,
    private readonly key: SubscriptionKey,
    private readonly dispatcher: SubscriptionDispatcher,
    private readonly limiter: Limiter,
    private readonly outbound: OutboundPolicy,
    private readonly audit: AuditLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PAGE_UNLOCK) private readonly unlock: PageUnlock,
  ) {}

  /** `client`: the caller's address (limits) and the request (the page's cookie, the origin links point to). */
  async subscribe(slug: string, input: SubscribeRequest, client: { ip: string; request: Request }): Promise<void> {
    const page = await this.readablePage(slug, client.request);
    const kind: SubscriberKind = input.email !== undefined ? 'email' : 'webhook';
    if (kind === 'email' && page.emailChannelId === null) throw badRequest('subscriptions.emailNotOffered');
    if (kind === 'webhook' && !page.webhooks) throw badRequest('subscriptions.webhookNotOffered');
    await this.limiter.take(SUBSCRIBE_PER_ADDRESS, client.ip, 'subscriptions.tooMany');
    await this.limiter.take(SUBSCRIBE_PER_PAGE, page.id, 'subscriptions.tooMany');
    const address = kind === 'email' ? input.email! : await this.webhookAddress(input.webhook!);
    const tokenKey = await this.key.load();
    const queued = await this.subscribers.request({
      pageId: page.id,
      kind,
      address,
      baseUrl: this.config.publicUrl ?? `${client.request.protocol}://${client.request.get('host')}`,
      unsubscribeHash: (id) => hashToken(unsubscribeToken(tokenKey, id)),
    });
    if (queued) this.dispatcher.nudge();
  }

  /** Confirms the subscription of a confirmation link; the page to go back to. */
  async confirm(token: string): Promise<string> {
    const slug = await this.subscribers.confirm(hashToken(token));
    if (!slug) throw notFound('subscriptions.tokenInvalid');
    return pagePath(slug, 'subscribed');
  }

  /** Ends the subscription of an unsubscribe link; the page to go back to. */
  async unsubscribe(token: string): Promise<string> {
    const slug = await this.subscribers.unsubscribe(hashToken(token));
    if (!slug) throw notFound('subscriptions.tokenInvalid');
    return pagePath(slug, 'unsubscribed');
  }

  async list(slug: string, query: { page?: number; pageSize?: number; search?: string }): Promise<Omit<SubscribersResponse, 'success'>> {
    const page = await this.subscribers.page(slug);
    if (!page) throw notFound('statusPages.notFound');
    const number = query.page ?? 1;
    const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
    const { rows, total } = await this.subscribers.list(page.id, query.search, (number - 1) * pageSize, pageSize);
    return { subscribers: rows.map(toDto), total, page: number, pageSize };
  }

  /** Audited by the subscriber's id and kind only: the address is not the audit log's to keep. */
  async remove(slug: string, id: number): Promise<void> {
    const page = await this.subscribers.page(slug);
    if (!page) throw notFound('statusPages.notFound');
    const removed = await this.audit.transaction(async (db, record) => {
      const kind = await this.subscribers.remove(db, page.id, id);
      if (kind)
        await record({
          action: 'subscriber.removed',
          target: { type: 'subscriber', id },
          changes: { page: { before: page.slug }, kind: { before: kind } },
        });
      return kind;
    });
    if (!removed) throw notFound('subscriptions.notFound');
  }

  /** The page, when the caller may read it: a password page only with its cookie. */
  private async readablePage(slug: string, request: Request): Promise<SubscribablePage> {
    const page = await this.subscribers.page(slug);
    if (!page) throw notFound('statusPages.notFound');
    if (page.passwordHash !== null && !(await this.unlock.unlocked({ ...page, passwordHash: page.passwordHash }, request)))
      throw unauthorized('statusPages.locked');
    return page;
  }

  /** The URL as stored (normalised by `URL`), refused when the outbound rules for visitors' webhooks refuse its host now. */
  private async webhookAddress(webhook: string): Promise<string> {
    const address = new URL(webhook).href;
    const endpoint = urlEndpoint(address);
    const refused = endpoint && (await this.outbound.refusal('user', endpoint.host, endpoint.port));
    if (refused || !endpoint) throw badRequest('subscriptions.webhookDenied');
    return address;
  }
}

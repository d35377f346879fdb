import type { ChannelConfigs, ChannelType, NotificationTargetKind, WebPushAudience, WebPushPayload } from '@vigil/proto';
import type { Dispatcher } from 'undici';
import type { AddressGuard } from '../../common/outbound';

/** One notification, rendered from a template, ready for any channel. */
export interface NotificationMessage {
  /** Event name, e.g. `monitor.down`, `agent.cpu_high`, `test`. */
  event: string;
  severity: 'alert' | 'recovery' | 'info';
  subject: string;
  /** Plain text body (several lines). */
  text: string;
  /** `maintenance`: a window's start or end notice. */
  target: { kind: NotificationTargetKind; id: number | null; name: string };
  /** ISO time of the event. */
  at: string;
  /** The monitor's or agent's page (from PUBLIC_URL), when the server knows its public address. */
  link?: string;
  /**
   * The alert episode the message opens or closes (`monitor:12:status:3`, `agent:3:cpu:5`,
   * `monitor:12:certificate:<fingerprint>`): the same for an alert and its recovery, on every instance and attempt,
   * and new for the next episode. Incident services key their incidents on it; absent for tests.
   */
  episode?: string;
  /** A grouped message (event `group`): the notifications it stands for, each whole (see groups.ts). */
  items?: NotificationMessage[];
}

/** Where providers send, how long they may take, and which delivery a request belongs to. */
export interface SendContext {
  /** The hosted service's base address for this channel's type (its spec's `apiUrl` or `<TYPE>_API_URL`), without a trailing slash. */
  apiUrl: string;
  /** Whole request, connect to body. */
  timeoutMs: number;
  /** Epoch ms, for signatures (injectable for tests). */
  now: () => number;
  /** The HTTP agent that applies the outbound policy (admin rules: OUTBOUND_DENY and Vigil's own services); absent: undici's global one (unit tests). */
  dispatcher?: Dispatcher;
  /** The same admin rules for providers that open their own sockets (SMTP); absent: every address allowed (unit tests). */
  guard?: AddressGuard;
  /** The browsers with notifications enabled (the webpush channel sends through it); absent in unit tests. */
  webPush?: WebPushDelivery;
  /**
   * The idempotency key of the outbox row being delivered (a UUID), the same on every attempt: sent as
   * `X-Vigil-Delivery` on every request, and in the body where the body is ours (the webhook's `delivery_id`).
   */
  deliveryId?: string;
}

/** Delivers one payload to every subscribed browser of an audience (WebPushService). */
export interface WebPushDelivery {
  deliver(audience: WebPushAudience, payload: WebPushPayload): Promise<ProviderAnswer>;
}

/** What the provider answered, for the delivery history and the "send test" dialog. */
export interface ProviderAnswer {
  status: number;
  /** The status's reason phrase (`OK`); never the answer's body, which may come from any internal address. */
  detail: string;
}

/** A failed delivery: `status` is the HTTP status when there was an answer. */
export class DeliveryError extends Error {
  /** Whether sending again later may succeed: by default network errors, timeouts, 429 and 5xx. */
  readonly retryable: boolean;
  /** How long the provider asked us to wait (Telegram's `retry_after`, a `Retry-After` header). */
  readonly retryAfterMs: number | null;

  constructor(
    message: string,
    readonly status: number | null = null,
    options: { retryable?: boolean; retryAfterMs?: number | null } = {},
  ) {
    super(message);
    this.name = 'DeliveryError';
    this.retryable = options.retryable ?? (status === null || status === 429 || status >= 500);
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/**
 * A channel type's delivery: everything else about the type (fields, secrets, validation, masking) is its entry in
 * proto's CHANNEL_SPECS.
 */
export interface ChannelProvider<T extends ChannelType = ChannelType> {
  type: T;
  /**
   * Where the channel's secrets go, from a config as stored: a masked secret is only kept while this stays the same
   * (see secrets.ts). Absent: the addresses in the config's URL fields (none: a destination the server fixes, the
   * type's `<TYPE>_API_URL`).
   */
  destination?(config: Record<string, unknown>): string | null;
  /** Delivers one message; resolves with the provider's answer or throws DeliveryError. */
  send(message: NotificationMessage, config: ChannelConfigs[T], context: SendContext): Promise<ProviderAnswer>;
}

import type { ChannelConfigs, ChannelType, MessageCode } from '@vigil/proto';
import type { Dispatcher } from 'undici';

/** One notification, rendered from a template, ready for any channel. */
export interface NotificationMessage {
  /** Event name, e.g. `monitor.down`, `agent.cpu_high`, `test`. */
  event: string;
  severity: 'alert' | 'recovery' | 'info';
  subject: string;
  /** Plain text body (several lines). */
  text: string;
  target: { kind: 'monitor' | 'agent' | 'test'; id: number | null; name: string };
  /** ISO time of the event. */
  at: string;
}

/** Where providers send, how long they may take, and which delivery a request belongs to. */
export interface SendContext {
  telegramApiUrl: string;
  resendApiUrl: string;
  /** Whole request, connect to body. */
  timeoutMs: number;
  /** Epoch ms, for signatures (injectable for tests). */
  now: () => number;
  /** The HTTP agent that applies the outbound policy (admin rules: OUTBOUND_DENY and Vigil's own services); absent: undici's global one (unit tests). */
  dispatcher?: Dispatcher;
  /**
   * The idempotency key of the outbox row being delivered (a UUID), the same on every attempt: sent as
   * `X-Vigil-Delivery` on every request, and in the body where the body is ours (the webhook's `delivery_id`).
   */
  deliveryId?: string;
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

export type Validated<C> = { ok: true; config: C } | { ok: false; code: MessageCode };

export interface ChannelProvider<T extends ChannelType = ChannelType> {
  type: T;
  /** Config fields that are secrets: masked in reads (each value of an object field, e.g. headers), never logged. */
  secretFields: ReadonlyArray<keyof ChannelConfigs[T]>;
  /** URL fields that may carry credentials (`user:pass@`, `?token=`): those parts are masked in reads. */
  credentialUrlFields?: ReadonlyArray<keyof ChannelConfigs[T]>;
  /**
   * Where the channel's secrets go, from a config as stored: a masked secret is only kept while this stays the same
   * (see secrets.ts). Absent: a destination the server fixes (the Telegram and Resend API addresses).
   */
  destination?(config: Record<string, unknown>): string | null;
  /** Checks and normalises (trims) a config; the first problem's message code. */
  validate(config: unknown): Validated<ChannelConfigs[T]>;
  /** Delivers one message; resolves with the provider's answer or throws DeliveryError. */
  send(message: NotificationMessage, config: ChannelConfigs[T], context: SendContext): Promise<ProviderAnswer>;
}

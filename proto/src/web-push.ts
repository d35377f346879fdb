/** Web Push (browser notifications): the subscription a browser hands over, and what the service worker receives. */

/** Longest subscription endpoint accepted; real push services use about 200 to 500 characters. */
export const WEB_PUSH_ENDPOINT_MAX = 1024;
/** Browsers one user may enable at a time; disabling one makes room. */
export const WEB_PUSH_SUBSCRIPTIONS_PER_USER = 20;
/** Decoded sizes of a subscription's keys (RFC 8291): an uncompressed P-256 point and the auth secret. */
export const WEB_PUSH_P256DH_BYTES = 65;
export const WEB_PUSH_AUTH_BYTES = 16;
/** Largest payload JSON we send, in bytes; push services accept about 4 KB of ciphertext. */
export const WEB_PUSH_PAYLOAD_MAX = 3072;
/** Who receives a webpush channel's messages: every browser with notifications enabled, or admins' only. */
export type WebPushAudience = 'all' | 'admins';

/** `PushSubscription.toJSON()`: the body of `POST /api/web-push/subscriptions`. */
export interface WebPushSubscriptionRequest {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** The body of `DELETE /api/web-push/subscriptions`. */
export interface WebPushUnsubscribeRequest {
  endpoint: string;
}

export interface WebPushKeyResponse {
  success: true;
  /** The VAPID public key, base64url: the browser's `applicationServerKey`. */
  data: { publicKey: string };
}

/** One of the caller's browsers, as listed: never the whole endpoint (it is the capability to push) nor the keys. */
export interface WebPushSubscriptionDto {
  id: number;
  created_at: string;
  /** A short name of the browser, from its User-Agent when it subscribed (`Chrome on Android`), or null. */
  user_agent: string | null;
  /** The push service's origin, e.g. `https://fcm.googleapis.com`. */
  origin: string;
  /** Hex SHA-256 of the endpoint: a browser finds its own entry by hashing its endpoint, which is never sent back. */
  endpoint_hash: string;
}

export interface WebPushSubscriptionsResponse {
  success: true;
  data: WebPushSubscriptionDto[];
}

/** What the service worker receives (decrypted) and shows. */
export interface WebPushPayload {
  title: string;
  body: string;
  /** A path of this site to open on click: `/monitors/{id}`, `/agents/{id}`. */
  url: string;
  /** Notifications with the same tag replace each other (one per monitor or agent). */
  tag: string;
  severity: 'alert' | 'recovery' | 'info';
}

import type {
  MessageResponse,
  WebPushKeyResponse,
  WebPushSubscriptionDto,
  WebPushSubscriptionRequest,
  WebPushSubscriptionsResponse,
} from '@vigil/proto';
import { ApiError, apiRequest, http } from '../../api/http';

/** The service worker that shows pushes (client/public/sw.js), served at the root so its scope is the whole app. */
export const SERVICE_WORKER_URL = '/sw.js';

export const webPushApi = {
  key: () => http.get<WebPushKeyResponse>('/api/web-push/key'),
  list: (signal?: AbortSignal) => http.get<WebPushSubscriptionsResponse>('/api/web-push/subscriptions', { signal }),
  subscribe: (body: WebPushSubscriptionRequest) => http.post<MessageResponse>('/api/web-push/subscriptions', body),
  unsubscribe: (endpoint: string) => apiRequest<MessageResponse>('/api/web-push/subscriptions', { method: 'DELETE', body: { endpoint } }),
};

/** Whether this browser can receive pushes at all: a secure page with service workers, the Push API and notifications. */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** This browser's push subscription, if it has one (without registering anything). */
export async function browserSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Hex SHA-256 of an endpoint: how the server's list names a browser without sending its endpoint back. */
export async function endpointHash(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The caller's entry for this browser in the server's list, if the server sends this browser the caller's alerts. */
export async function thisBrowser(subscriptions: WebPushSubscriptionDto[]): Promise<WebPushSubscriptionDto | null> {
  const subscription = await browserSubscription();
  if (!subscription) return null;
  const hash = await endpointHash(subscription.endpoint);
  return subscriptions.find((entry) => entry.endpoint_hash === hash) ?? null;
}

export type EnableResult = 'enabled' | 'denied';

/**
 * Asks for permission, subscribes this browser with the server's key (replacing a subscription made with another key)
 * and hands the subscription to the server.
 */
export async function enablePush(): Promise<EnableResult> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  const { data } = await webPushApi.key();
  const applicationServerKey = base64UrlBytes(data.publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  await webPushApi.subscribe(subscription.toJSON() as WebPushSubscriptionRequest);
  return 'enabled';
}

/** Stops this browser's pushes: the server forgets it first, then the browser drops the subscription. */
export async function disablePush(): Promise<void> {
  const subscription = await browserSubscription();
  if (!subscription) return;
  try {
    await webPushApi.unsubscribe(subscription.endpoint);
  } catch (error) {
    // Already forgotten (expired, or another user enabled this browser since): only the browser's side is left.
    if (!(error instanceof ApiError && error.code === 'webPush.notFound')) throw error;
  }
  await subscription.unsubscribe();
}

export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

import { STATUS_CODES } from 'node:http';
import { request, type Dispatcher } from 'undici';
import { generateRequestDetails } from 'web-push';
import { WEB_PUSH_PAYLOAD_MAX, type WebPushPayload } from '@vigil/proto';
import { describeRefusal, outboundRefusal } from '../common/outbound';
import { DeliveryError } from '../notifications/providers/provider';

/** The server's VAPID identity: the key pair (the private key never leaves the server) and the subject in each token. */
export interface VapidIdentity {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/** Where and how to encrypt for one browser. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  vapid: VapidIdentity;
  /** The whole request. */
  timeoutMs: number;
  /** The HTTP agent that applies the outbound policy; absent: undici's global one (unit tests). */
  dispatcher?: Dispatcher;
}

/** `sent`: the push service took the message; `gone`: it answered 404 or 410, the subscription is over and is deleted. */
export type PushOutcome = 'sent' | 'gone';

/** How long a push service keeps a message for a browser that is offline: an alert a day late is still worth seeing. */
const TTL_SECONDS = 24 * 3600;
const TITLE_MAX = 200;

/**
 * Sends one notification to one browser: web-push writes the request (a VAPID JWT for the endpoint's origin, the
 * payload encrypted with aes128gcm to the browser's keys, TTL, Urgency) and undici sends it through the given agent,
 * so the outbound policy judges the push service's address like any other connection. Errors never carry the
 * endpoint: it is the capability to push to that browser.
 */
export async function sendWebPush(target: PushTarget, payload: WebPushPayload, options: PushOptions): Promise<PushOutcome> {
  const details = generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    JSON.stringify(fitPayload(payload)),
    {
      vapidDetails: options.vapid,
      TTL: TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      urgency: payload.severity === 'alert' ? 'high' : 'normal',
    },
  );
  // undici counts the body itself; the rest are web-push's headers as text.
  const headers = Object.fromEntries(
    Object.entries(details.headers as Record<string, string | number>)
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  const signal = AbortSignal.timeout(options.timeoutMs);
  let status: number;
  try {
    const response = await request(details.endpoint, {
      method: 'POST',
      headers,
      body: details.body as Buffer,
      signal,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    status = response.statusCode;
    // The answer's body is never read: the push service's words do not matter, and the address may be any host's.
    await response.body.dump();
  } catch (error) {
    throw failureOf(error, signal);
  }
  if (status === 404 || status === 410) return 'gone';
  if (status < 200 || status >= 300) {
    const reason = STATUS_CODES[status];
    throw new DeliveryError(reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`, status);
  }
  return 'sent';
}

/**
 * The payload cut to fit WEB_PUSH_PAYLOAD_MAX bytes of JSON: the title to TITLE_MAX characters, then the body from its
 * end (with an ellipsis) as far as needed. The URL and tag are ours and short.
 */
export function fitPayload(payload: WebPushPayload): WebPushPayload {
  const title = cut(payload.title, TITLE_MAX);
  const fitted = { ...payload, title };
  if (bytes(fitted) <= WEB_PUSH_PAYLOAD_MAX) return fitted;
  const chars = Array.from(payload.body);
  let low = 0;
  let high = chars.length;
  // The longest body that fits: JSON escapes make bytes per character uneven, so search rather than compute.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (bytes({ ...fitted, body: `${chars.slice(0, middle).join('')}…` }) <= WEB_PUSH_PAYLOAD_MAX) low = middle;
    else high = middle - 1;
  }
  return { ...fitted, body: `${chars.slice(0, low).join('')}…` };
}

const bytes = (payload: WebPushPayload) => Buffer.byteLength(JSON.stringify(payload));

function cut(text: string, length: number): string {
  const chars = Array.from(text);
  return chars.length > length ? `${chars.slice(0, length - 1).join('')}…` : text;
}

/** A request that got no answer: refused by the outbound policy (not retried), timed out or failed (retried). */
function failureOf(error: unknown, signal: AbortSignal): DeliveryError {
  const refused = outboundRefusal(error);
  if (refused) return new DeliveryError(describeRefusal(refused), null, { retryable: false });
  if (signal.aborted) return new DeliveryError('Timed out');
  const failure = error as { code?: string; cause?: { code?: string } };
  const code = failure?.code ?? failure?.cause?.code;
  return new DeliveryError(code ? `Request failed: ${code}` : 'Request failed');
}

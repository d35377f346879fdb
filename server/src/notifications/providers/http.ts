import { STATUS_CODES } from 'node:http';
import { request } from 'undici';
import { describeRefusal, outboundRefusal } from '../../common/outbound';
import { DeliveryError, type ProviderAnswer, type SendContext } from './provider';

const USER_AGENT = 'Vigil-Notifier/1.0';
/** The delivery's idempotency key (SendContext.deliveryId): receivers drop a request whose key they have already seen. */
export const DELIVERY_HEADER = 'x-vigil-delivery';
/** Enough for any provider's answer; a longer body is cut, not read to the end. */
const MAX_BODY_BYTES = 64 * 1024;
/** A provider's own error text is cut to this; it is the only part of an answer ever shown (see postJson). */
const REASON_LENGTH = 160;
const MESSAGE_EXCERPT_LENGTH = 200;
const REDACTED = '[redacted]';

/** Why an answer is a failure, in the provider's own words. */
export interface Explanation {
  message: string;
  retryable?: boolean;
  retryAfterMs?: number | null;
}

export interface PostOptions {
  /** POST by default; Matrix sends with PUT and resolves a room alias with GET (no body is sent with GET). */
  method?: 'POST' | 'PUT' | 'GET';
  headers?: Record<string, string>;
  /** Strings that must never appear in a message or detail; the URL and its secret-looking parts are always added. */
  secrets?: ReadonlyArray<string | undefined>;
  /**
   * Reads the provider's verdict from the answer (`json` is undefined when the body is not JSON): an explanation makes
   * the delivery fail, even with a 2xx status. A non-2xx answer without an explanation fails with its status line.
   * An explanation must come from a field the provider documents, never the raw body.
   */
  check?: (json: unknown, status: number, text: string) => Explanation | undefined;
}

/**
 * POSTs `payload` as JSON within the context's timeout and resolves with the status and its reason phrase. Network
 * errors, timeouts, non-2xx answers and answers `check` rejects become a DeliveryError whose message never contains
 * the URL or any of the given secrets. The answer's body is never repeated: a destination may be any internal
 * address, so echoing it would read internal services back to the user (SSRF). Only the provider's own error field,
 * as `check` picks it, is shown: one line, redacted, at most REASON_LENGTH characters.
 */
export async function postJson(url: string, payload: unknown, context: SendContext, options: PostOptions = {}): Promise<ProviderAnswer> {
  const { status, detail } = await requestJson(url, payload, context, options);
  return { status, detail };
}

/** A successful answer with its body parsed as JSON (undefined when it is not), for the few providers that read it. */
export interface JsonAnswer extends ProviderAnswer {
  json: unknown;
}

/** postJson, also giving the answer's parsed body to the caller (Matrix reads the room id an alias resolves to). */
export async function requestJson(url: string, payload: unknown, context: SendContext, options: PostOptions = {}): Promise<JsonAnswer> {
  const method = options.method ?? 'POST';
  const target = withoutCredentials(url);
  const redactor = new Redactor([...urlSecrets(url), ...(options.secrets ?? []), ...Object.values(options.headers ?? {})]);
  const headers: Record<string, string> = {
    ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
    'user-agent': USER_AGENT,
    ...(target.authorization ? { authorization: target.authorization } : {}),
    ...lowerCaseKeys(options.headers ?? {}),
    // After the user's headers: the key must be the one this delivery keeps across its attempts.
    ...(context.deliveryId ? { [DELIVERY_HEADER]: context.deliveryId } : {}),
  };

  const signal = AbortSignal.timeout(context.timeoutMs);
  let status: number;
  let text: string;
  let retryAfterMs: number | null;
  try {
    const response = await request(target.url, {
      method,
      headers,
      body: method === 'GET' ? undefined : JSON.stringify(payload),
      signal,
      ...(context.dispatcher ? { dispatcher: context.dispatcher } : {}),
      headersTimeout: context.timeoutMs,
      bodyTimeout: context.timeoutMs,
    });
    status = response.statusCode;
    retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    text = await readLimited(response.body);
  } catch (error) {
    if (signal.aborted || isTimeout(error)) throw new DeliveryError(`Timed out after ${formatSeconds(context.timeoutMs)} s`);
    throw networkError(error, redactor);
  }

  const json = parseJson(text);
  const problem = options.check?.(json, status, text);
  if (problem) {
    throw new DeliveryError(redactor.excerpt(problem.message, REASON_LENGTH), status, {
      retryable: problem.retryable,
      retryAfterMs: problem.retryAfterMs ?? retryAfterMs,
    });
  }
  if (status < 200 || status >= 300) throw new DeliveryError(statusLine(status), status, { retryAfterMs });
  return { status, detail: STATUS_CODES[status] ?? '', json };
}

/** `HTTP 401 Unauthorized`: the status and its standard reason phrase, nothing the server wrote. */
export function statusLine(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`;
}

/** Whether the dispatcher should try a failed delivery again: network errors, timeouts, 429, 5xx and rate limits. */
export function isRetryable(error: unknown): boolean {
  return error instanceof DeliveryError && error.retryable;
}

/** Replaces every occurrence of the secrets (also URL- and JSON-encoded) by a marker. */
export class Redactor {
  private readonly variants: string[];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    const variants = new Set<string>();
    for (const secret of secrets) {
      if (!secret || secret.length < 4) continue;
      variants.add(secret);
      variants.add(encodeURIComponent(secret));
      variants.add(JSON.stringify(secret).slice(1, -1));
    }
    // Longest first, so a URL is replaced whole before its parts.
    this.variants = [...variants].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let result = text;
    for (const variant of this.variants) result = result.split(variant).join(REDACTED);
    return result;
  }

  /** One line of at most `length` characters, redacted, without control characters. */
  excerpt(text: string, length: number): string {
    const line = this.redact(text)
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ')
      .trim();
    return line.length > length ? `${line.slice(0, length - 1)}…` : line;
  }
}

/** The URL and the parts of it that carry a credential: long path segments (Slack, Feishu, Telegram's bot token) and query values (DingTalk's access_token, WeCom's key). */
export function urlSecrets(url: string): string[] {
  const secrets = [url];
  try {
    const parsed = new URL(url);
    secrets.push(
      parsed.href,
      `${parsed.pathname}${parsed.search}`,
      decodeURIComponent(parsed.username),
      decodeURIComponent(parsed.password),
    );
    for (const segment of parsed.pathname.split('/')) if (segment.length >= 12) secrets.push(segment, decodeURIComponent(segment));
    for (const value of parsed.searchParams.values()) if (value.length >= 6) secrets.push(value);
  } catch {
    // Not a URL: the whole string is already listed.
  }
  return secrets;
}

/** `10000` → `10`, `200` → `0.2`. */
export function formatSeconds(ms: number): string {
  return String(Math.round(ms / 10) / 100);
}

function withoutCredentials(url: string): { url: string; authorization: string | null } {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return { url, authorization: null };
    // undici drops URL credentials silently; send them as Basic auth as a browser would.
    const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    parsed.username = '';
    parsed.password = '';
    return { url: parsed.href, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
  } catch {
    return { url, authorization: null };
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_BODY_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseRetryAfter(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function isTimeout(error: unknown): boolean {
  const failure = error as { name?: string; code?: string };
  return failure?.name === 'TimeoutError' || failure?.code === 'UND_ERR_HEADERS_TIMEOUT' || failure?.code === 'UND_ERR_BODY_TIMEOUT';
}

/** A short, redacted reason for a request that got no answer. */
function networkError(error: unknown, redactor: Redactor): DeliveryError {
  const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = failure?.code ?? failure?.cause?.code ?? '';
  const message = failure?.cause?.message ?? failure?.message ?? '';
  // The setting will not change by itself: trying again is pointless.
  const refused = outboundRefusal(error);
  if (refused) return new DeliveryError(describeRefusal(refused), null, { retryable: false });
  if (code === 'ECONNREFUSED') return new DeliveryError('Connection refused');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return new DeliveryError('DNS lookup failed: host not found');
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return new DeliveryError('Connection closed by the server');
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new DeliveryError('Host unreachable');
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new DeliveryError('Connection timed out');
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return new DeliveryError(`TLS error: ${code}`);
  // A request undici refuses to send (a bad header, a bad URL) fails the same way next time.
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_URL') {
    return new DeliveryError(`Invalid request: ${redactor.redact(message)}`, null, { retryable: false });
  }
  return new DeliveryError(`Request failed: ${redactor.excerpt(message || code || 'unknown error', MESSAGE_EXCERPT_LENGTH)}`);
}

/** A service's JSON answer read as its documented fields, all optional: anything but an object reads as none. */
export function answerOf<T extends object>(json: unknown): Partial<T> {
  return (typeof json === 'object' && json !== null ? json : {}) as Partial<T>;
}

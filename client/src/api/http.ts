import { isMessageCode, type MessageCode } from '@vigil/proto';
import { clearSession, readToken } from '../features/auth/session';

const DEFAULT_TIMEOUT_MS = 10_000;
const configuredTimeout = Number(import.meta.env.VITE_API_TIMEOUT);
/** Request timeout, overridable at build time with VITE_API_TIMEOUT (spec section 7). */
export const API_TIMEOUT_MS = Number.isFinite(configuredTimeout) && configuredTimeout > 0 ? configuredTimeout : DEFAULT_TIMEOUT_MS;

/** Same origin: the server serves both the API and the client. */
const BASE_URL = '';

export type ApiErrorKind = 'http' | 'network' | 'timeout';

/** A failed call: the server's answer (status, catalogued code, English message) or a transport failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: MessageCode | undefined;
  readonly kind: ApiErrorKind;
  /** The request field the server's message is about, where it names one. */
  readonly field: string | undefined;

  constructor(options: { status: number; message: string; code?: MessageCode; kind?: ApiErrorKind; field?: string }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.kind = options.kind ?? 'http';
    this.field = options.field;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Whether a 401 ends the session. Off only for the login call, where 401 means "wrong password" and is shown on
   * the form instead.
   */
  expireOn401?: boolean;
  /**
   * A wall screen's display key: sent instead of the session token (`X-Display-Key`, never in the URL, so server
   * logs do not keep it), and a 401 then means the key was revoked, not that the session ended.
   */
  displayKey?: string;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called after a 401 has cleared the stored session, so the auth state can follow and the user go to /login. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function expireSession(): void {
  clearSession();
  for (const listener of unauthorizedListeners) listener();
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  const text = await response.text();
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Sends one request with the session's (or display key's) credential, bounded by the timeout. Throws `ApiError` for a
 * network failure or a timeout; rethrows the caller's own abort as is. A 401 ends the session where it should.
 */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = 'GET', body, signal, timeoutMs = API_TIMEOUT_MS, displayKey } = options;
  const expireOn401 = displayKey === undefined && (options.expireOn401 ?? true);
  const headers: Record<string, string> = { Accept: accept };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = displayKey === undefined ? readToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (displayKey !== undefined) headers['X-Display-Key'] = displayKey;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort();
  signal?.addEventListener('abort', forwardAbort);

  let response: Response;
  try {
    if (signal?.aborted) controller.abort();
    response = await fetch(`${BASE_URL}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut) throw new ApiError({ status: 0, kind: 'timeout', message: 'Request timed out' });
    if (signal?.aborted) throw error;
    throw new ApiError({ status: 0, kind: 'network', message: 'Network error' });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
  if (response.status === 401 && expireOn401) expireSession();
  return response;
}

/** The error a failed answer's JSON body describes (code, message, field). */
function answerError(response: Response, payload: Record<string, unknown> | null): ApiError {
  const code = isMessageCode(payload?.code) ? payload.code : undefined;
  const message = typeof payload?.message === 'string' ? payload.message : '';
  const field = typeof payload?.field === 'string' ? payload.field : undefined;
  return new ApiError({ status: response.status, code, message, field });
}

/**
 * Sends one JSON request to the API and returns the parsed body of a successful answer. Throws `ApiError` for an
 * error status, a `success: false` body, a network failure or a timeout; rethrows the caller's own abort as is.
 */
export async function apiRequest<T extends object>(
  path: string,
  options: RequestOptions = {},
): Promise<T & { success: true; message?: string }> {
  const response = await send(path, options, 'application/json');
  const payload = await readJson(response);
  if (!response.ok || payload?.success !== true) throw answerError(response, payload);
  return payload as T & { success: true; message?: string };
}

/**
 * Reads a file the API serves (a screenshot) with the session's credential, which an `<img src>` cannot send: its
 * bytes and when it was made (`Last-Modified`, if given). Errors are `apiRequest`'s.
 */
export async function apiFile(
  path: string,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
): Promise<{ blob: Blob; modified: Date | null }> {
  const response = await send(path, { ...options, method: 'GET' }, '*/*');
  if (!response.ok) throw answerError(response, await readJson(response));
  const modified = new Date(response.headers.get('Last-Modified') ?? '');
  return { blob: await response.blob(), modified: Number.isNaN(modified.getTime()) ? null : modified };
}

/** A download's file: its bytes and the name the server gave it (`Content-Disposition`). */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

/**
 * Reads a file the API streams (an export) with the session's credential, telling `onProgress` the bytes received so
 * far. Only the wait for the answer's headers is bounded by the timeout: a long export keeps streaming. Errors are
 * `apiRequest`'s.
 */
export async function apiDownload(
  path: string,
  onProgress: (bytes: number) => void,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
): Promise<DownloadedFile> {
  const response = await send(path, { ...options, method: 'GET' }, '*/*');
  if (!response.ok) throw answerError(response, await readJson(response));
  const filename = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  if (!response.body) return { blob: await response.blob(), filename };
  const parts: BlobPart[] = [];
  let received = 0;
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel();
  options.signal?.addEventListener('abort', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.byteLength;
      onProgress(received);
    }
  } catch (error) {
    // A connection cut mid-file (the server cuts it when it fails after the first bytes) is a broken download.
    if (options.signal?.aborted) throw error;
    throw new ApiError({ status: 0, kind: 'network', message: 'Network error' });
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
  // A cancelled read ends like a finished one: the caller's abort must not pass for a whole file.
  if (options.signal?.aborted) throw new DOMException('Download cancelled', 'AbortError');
  return { blob: new Blob(parts, { type }), filename };
}

export const http = {
  get: <T extends object>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T extends object>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T extends object>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T extends object>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

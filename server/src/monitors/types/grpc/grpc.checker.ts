import { connect as http2Connect, constants as http2, type ClientHttp2Session } from 'node:http2';
import type { Checker, CheckTarget, Endpoint, Observed, ProbeResult } from '../../checkers/checker';
import { failedProbe, ProbeFailure } from '../../checkers/failure';
import { refusedCertificate } from '../../checkers/peer-certificate';
import { openTargetSocket, TargetSocketChecker } from '../../checkers/socket';

export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';
/** `grpc.health.v1.HealthCheckResponse.ServingStatus`, by number. */
export const SERVING_STATUSES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
/** gRPC status codes, by number. */
const GRPC_CODES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;
/** A health answer is a few bytes; anything past this is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;
const CLOSE_GRACE_MS = 1000;

/** HTTP/2 header fields as node:http2 hands them over (`:status` a number). */
type HeaderFields = Record<string, string | string[] | number | undefined>;

export interface CallAnswer {
  headers: HeaderFields;
  trailers: HeaderFields;
  data: Buffer;
}

/**
 * The standard `grpc.health.v1.Health/Check` call, plaintext (h2c) or TLS, as one HTTP/2 request on a connection of
 * its own that is closed when the answer is in: nothing stays open between checks, whatever the number of monitors.
 * It is spoken over node:http2 rather than through @grpc/grpc-js because the check needs the connection itself: the
 * address judged by the outbound policy, the peer certificate (grpc-js does not expose it), and a deadline on the whole.
 * SERVING is up; any other serving status, or a gRPC error, fails the check naming it. `body` is the status name.
 */
export class GrpcChecker extends TargetSocketChecker implements Checker<'grpc'> {
  readonly type = 'grpc';

  endpoint(target: CheckTarget<'grpc'>): Endpoint {
    return { host: target.hostname, port: target.port };
  }

  async check(target: CheckTarget<'grpc'>): Promise<ProbeResult> {
    const started = performance.now();
    const checkedAt = new Date();
    const timeoutMs = target.timeout * 1000;
    const signal = AbortSignal.timeout(timeoutMs);
    const observed: Observed = {};
    let session: ClientHttp2Session | undefined;
    try {
      const opened = await openTargetSocket({
        hostname: target.hostname,
        port: target.port,
        guard: this.outbound.guard(target.scope),
        tls: target.tls ? { alpn: ['h2'], ca: this.ca } : null,
        timeoutMs: target.timeout * 1000,
      });
      if (opened.certificate) observed.certificate = opened.certificate;
      const refused = refusedCertificate(opened.certificate, target.tls, target.ignoreTls);
      const notHttp2 = target.tls && opened.alpnProtocol !== 'h2' ? 'The server does not offer HTTP/2 over TLS (ALPN h2): not gRPC' : null;
      if (refused || notHttp2) {
        opened.socket.destroy();
        throw new ProbeFailure((refused ?? notHttp2) as string);
      }
      const host = target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname;
      session = http2Connect(`${target.tls ? 'https' : 'http'}://${host}:${target.port}`, { createConnection: () => opened.socket });
      const answer = await healthCall(session, target.grpcService, signal, Math.max(1, timeoutMs - (performance.now() - started)));
      const responseTime = Math.round(performance.now() - started);
      return {
        ...judge(answer, target.grpcService, target.timeout),
        responseTime,
        checkedAt,
        observed: { ...observed, ...bodyOf(answer) },
      };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed, timeoutSeconds: target.timeout });
    } finally {
      if (session) closeSession(session);
    }
  }
}

/** One unary call: resolves with the answer's headers, trailers and body; rejects on a stream or session error. */
function healthCall(session: ClientHttp2Session, service: string, signal: AbortSignal, deadlineMs: number): Promise<CallAnswer> {
  return new Promise((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({
      [http2.HTTP2_HEADER_METHOD]: 'POST',
      [http2.HTTP2_HEADER_PATH]: HEALTH_CHECK_PATH,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': `${Math.ceil(deadlineMs)}m`,
      'user-agent': 'Vigil-Monitor/1.0',
    });
    const abort = () => {
      stream.close(http2.NGHTTP2_CANCEL);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
    let headers: HeaderFields = {};
    let trailers: HeaderFields = {};
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('response', (received) => (headers = received));
    stream.on('trailers', (received) => (trailers = received));
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        stream.close(http2.NGHTTP2_CANCEL);
        reject(new ProbeFailure(`The answer is larger than ${MAX_ANSWER_BYTES / 1024} KiB: not a health answer`));
      } else chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('close', () => {
      signal.removeEventListener('abort', abort);
      if (stream.rstCode && stream.rstCode !== http2.NGHTTP2_NO_ERROR && !headers[':status']) {
        reject(new ProbeFailure(`The server reset the call (HTTP/2 error ${stream.rstCode})`));
      }
      resolve({ headers, trailers, data: Buffer.concat(chunks) });
    });
    stream.end(grpcFrame(encodeHealthRequest(service)));
  });
}

/** The outcome of a finished call: SERVING is up, anything else fails naming what came back. */
export function judge(answer: CallAnswer, service: string, timeoutSeconds: number): Pick<ProbeResult, 'ok' | 'statusCode' | 'error'> {
  const httpStatus = Number(answer.headers[':status']);
  const rawStatus = answer.trailers['grpc-status'] ?? answer.headers['grpc-status'];
  if (rawStatus === undefined) {
    const fail =
      httpStatus && httpStatus !== 200 ? `Unexpected HTTP status ${httpStatus}: not a gRPC server` : 'The answer carried no gRPC status';
    return { ok: false, statusCode: null, error: fail };
  }
  const code = Number(rawStatus);
  const name = GRPC_CODES[code] ?? `status ${code}`;
  if (code !== 0) {
    const detail = grpcMessage(answer.trailers['grpc-message'] ?? answer.headers['grpc-message']);
    if (code === 5) return { ok: false, statusCode: code, error: `Service "${service}" is unknown to the health service (NOT_FOUND)` };
    if (code === 12) return { ok: false, statusCode: code, error: 'The server does not implement grpc.health.v1.Health (UNIMPLEMENTED)' };
    if (code === 4) return { ok: false, statusCode: code, error: `Timeout after ${timeoutSeconds} s (DEADLINE_EXCEEDED)` };
    return { ok: false, statusCode: code, error: `gRPC error ${name}${detail ? `: ${detail}` : ''}` };
  }
  const status = servingStatusOf(answer.data);
  if (status === null) return { ok: false, statusCode: code, error: 'The answer is not a HealthCheckResponse' };
  return status === 'SERVING'
    ? { ok: true, statusCode: code, error: null }
    : { ok: false, statusCode: code, error: `Health status ${status}` };
}

/** The status name as `body`: the serving status, or SERVICE_UNKNOWN for a service the server does not know. */
function bodyOf(answer: CallAnswer): Observed {
  const code = Number(answer.trailers['grpc-status'] ?? answer.headers['grpc-status']);
  if (code === 5) return { body: 'SERVICE_UNKNOWN' };
  if (code !== 0) return {};
  const status = servingStatusOf(answer.data);
  return status === null ? {} : { body: status };
}

function grpcMessage(raw: HeaderFields[string]): string {
  const text = String(Array.isArray(raw) ? raw[0] : (raw ?? ''));
  if (!text) return '';
  try {
    return decodeURIComponent(text).slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

function closeSession(session: ClientHttp2Session): void {
  session.on('error', () => undefined);
  const cut = setTimeout(() => session.destroy(), CLOSE_GRACE_MS);
  cut.unref();
  session.close(() => clearTimeout(cut));
}

// ---------------------------------------------------------------------------------------------------------------
// The two health messages in protobuf's wire format: small enough to write out rather than load a .proto for.

/** A gRPC length-prefixed message: no compression flag, 4-byte big-endian length, the bytes. */
export function grpcFrame(message: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

/** The messages of a gRPC body (uncompressed only); null when it is not well framed. */
export function grpcMessages(body: Buffer): Buffer[] | null {
  const messages: Buffer[] = [];
  let offset = 0;
  while (offset < body.length) {
    if (offset + 5 > body.length || body[offset] !== 0) return null;
    const length = body.readUInt32BE(offset + 1);
    if (offset + 5 + length > body.length) return null;
    messages.push(body.subarray(offset + 5, offset + 5 + length));
    offset += 5 + length;
  }
  return messages;
}

/** `HealthCheckRequest { string service = 1; }` */
export function encodeHealthRequest(service: string): Buffer {
  if (service === '') return Buffer.alloc(0);
  const bytes = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from([0x0a]), varint(bytes.length), bytes]);
}

/** `HealthCheckResponse { ServingStatus status = 1; }` */
export function encodeHealthResponse(status: number): Buffer {
  return status === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x08]), varint(status)]);
}

/** The `service` of a HealthCheckRequest; null when the bytes are not one. */
export function decodeHealthRequest(message: Buffer): string | null {
  const fields = protobufFields(message);
  if (!fields) return null;
  const service = fields.find((field) => field.number === 1 && Buffer.isBuffer(field.value));
  return service ? (service.value as Buffer).toString('utf8') : '';
}

/** The serving status name of a framed HealthCheckResponse body; null when it is not one. */
export function servingStatusOf(body: Buffer): (typeof SERVING_STATUSES)[number] | `status ${number}` | null {
  const messages = grpcMessages(body);
  if (!messages || messages.length !== 1) return null;
  const fields = protobufFields(messages[0]);
  if (!fields) return null;
  const field = fields.findLast((entry) => entry.number === 1 && typeof entry.value === 'number');
  const status = (field?.value as number | undefined) ?? 0;
  return SERVING_STATUSES[status] ?? `status ${status}`;
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** Top-level fields of a protobuf message (varints as numbers, length-delimited as bytes); null when malformed. */
function protobufFields(message: Buffer): { number: number; value: number | Buffer }[] | null {
  const fields: { number: number; value: number | Buffer }[] = [];
  let offset = 0;
  const readVarint = (): number | null => {
    let result = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (offset >= message.length) return null;
      const byte = message[offset++];
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
    }
    return null;
  };
  while (offset < message.length) {
    const key = readVarint();
    if (key === null) return null;
    const number = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      const value = readVarint();
      if (value === null) return null;
      fields.push({ number, value });
    } else if (wire === 2) {
      const length = readVarint();
      if (length === null || offset + length > message.length) return null;
      fields.push({ number, value: message.subarray(offset, offset + length) });
      offset += length;
    } else if (wire === 1 || wire === 5) {
      offset += wire === 1 ? 8 : 4;
      if (offset > message.length) return null;
    } else return null;
  }
  return fields;
}

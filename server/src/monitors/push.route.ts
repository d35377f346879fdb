import { Logger } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { MESSAGES, type MessageCode } from '@vigil/proto';
import { type FailedRequest, renderLoggedApiError } from '../common/api-exception.filter';
import { badRequest } from '../common/api-exception';
import { clientAddress, normalizeAddress, type TrustFunction } from '../common/client-address';
import { envelope } from '../common/reply';
import { tagResponse } from '../common/request-id';
import type { AccessLog } from '../logging/access-log';
import { isCleanText } from '../common/text-rule';
import { setBaseSecurityHeaders } from '../web/security-headers';
import { PUSH_MESSAGE_MAX, PUSH_PING_MAX_MS, readPushQuery } from './push.dto';
import { PushService, TOKEN_SHAPE } from './push.service';

/** Where the route is mounted; `{token}` is the one segment below it. */
export const PUSH_PATH = '/api/push';
const PREFIX = `${PUSH_PATH}/`;

/** The methods a push may use: Kuma's documented GET and POST, and HEAD, which Express answered as GET before. */
const METHODS = new Set(['GET', 'HEAD', 'POST']);

/** The success answer is the same bytes for every push. */
const RECORDED = JSON.stringify(envelope({ ok: true }, 'push.recorded'));
const RECORDED_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(RECORDED) };

/**
 * `GET` or `POST /api/push/{token}?status=up|down&msg=&ping=`: Uptime Kuma's push URL; the token is the credential.
 *
 * Answered by the HTTP server's first request listener, ahead of socket.io's, Express's and Nest's: at a thousand
 * push monitors the pushes are a steady stream of requests. Nest's pipeline (router walk, guard, validation pipe,
 * interceptor, `res.json`) cost more than half of each one's CPU (1.45 → 0.65 ms per push, docs/benchmarks.md), and
 * Express's app, router and middleware before the route another 0.13 ms of main thread per push in a profile of the
 * mixed bench (docs/benchmarks.md, fifth round). It keeps the API's rules: the same
 * security headers and a request id, the client address as TRUST_PROXY says (Express's walk, `clientAddress`), the
 * query rules of every query (readPushQuery) and ApiExceptionFilter's error answers. Anything else under the path
 * (another method, a deeper path) goes on to Express, where Nest answers 404 as for any unknown route.
 */
export function installPushLane(server: Server, pushes: PushService, trust: TrustFunction, accessLog: AccessLog): void {
  const lane = { pushes, trust, accessLog, logger: new Logger('PushRoute') };
  const others = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (answerPush(req, res, lane)) return;
    for (const listener of others) listener.call(server, req, res);
  });
}

/** Answers `req` when it is a push (true); false leaves it to the other listeners. */
function answerPush(
  req: IncomingMessage,
  res: ServerResponse,
  { pushes, trust, accessLog, logger }: { pushes: PushService; trust: TrustFunction; accessLog: AccessLog; logger: Logger },
): boolean {
  const url = req.url ?? '';
  // Express matches paths without regard to case; so does this.
  if (!METHODS.has(req.method ?? '') || url.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return false;
  const at = url.indexOf('?');
  const token = tokenOf(url.slice(PUSH_PATH.length, at === -1 ? undefined : at));
  if (token === null) return false;
  setBaseSecurityHeaders(res);
  const requestId = tagResponse(res);
  accessLog.watch(req, res, requestId);
  const fail = (error: unknown) => answerError(error, { method: req.method, url, requestId }, res, logger);
  let query;
  try {
    if (!isCleanText(token)) throw badRequest('validation.textInvalid');
    query = readPushQuery(new URLSearchParams(at === -1 ? '' : url.slice(at + 1)));
  } catch (error) {
    fail(error);
    return true;
  }
  pushes
    .push(token, query, normalizeAddress(clientAddress(req, trust)))
    .then(() => res.writeHead(200, RECORDED_HEADERS).end(RECORDED), fail);
  return true;
}

/** ApiExceptionFilter's answer, written without Express. */
function answerError(error: unknown, request: FailedRequest, res: ServerResponse, logger: Logger): void {
  const { status, body, retryAfter } = renderLoggedApiError(error, request, logger);
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

/** The token of `/{token}` (one trailing slash allowed, as for every route), decoded; null for any other path. */
function tokenOf(path: string): string | null {
  const segment = path.endsWith('/') ? path.slice(1, -1) : path.slice(1);
  if (segment === '' || segment.includes('/')) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: no token looks like it, so it is unknown (and counted as a miss).
    return segment;
  }
}

const answer = (description: string, code?: MessageCode) => ({
  description,
  content: { 'application/json': { example: code ? { success: false, message: MESSAGES[code], code } : JSON.parse(RECORDED) } },
});

/** The route in the OpenAPI document (it is not a Nest route, so Swagger cannot find it). */
export function pushOpenApi(): OpenAPIObject['paths'][string] {
  const operation = (method: string) => ({
    tags: ['push'],
    operationId: `PushController_${method}`,
    summary: "Records a push (heartbeat) of a push monitor; Uptime Kuma's push URL",
    parameters: [
      { name: 'token', in: 'path' as const, required: true, schema: { type: 'string', pattern: TOKEN_SHAPE.source } },
      { name: 'status', in: 'query' as const, required: false, schema: { type: 'string', enum: ['up', 'down'], default: 'up' } },
      {
        name: 'msg',
        in: 'query' as const,
        required: false,
        description: 'Shown in the history when down; the body assertions read it',
        schema: { type: 'string', maxLength: PUSH_MESSAGE_MAX },
      },
      {
        name: 'ping',
        in: 'query' as const,
        required: false,
        description: 'Milliseconds, recorded as the response time',
        schema: { type: 'number', minimum: 0, maximum: PUSH_PING_MAX_MS },
      },
    ],
    responses: {
      200: answer('Recorded'),
      400: answer('A query value refused', 'push.statusInvalid'),
      404: answer('Unknown token, or the monitor is paused', 'push.notFound'),
      429: answer('Too many pushes from this address or for this token', 'request.tooMany'),
    },
  });
  return { get: operation('get'), post: operation('post') };
}

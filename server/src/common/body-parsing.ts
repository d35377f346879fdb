import { RequestMethod, SetMetadata, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { json } from 'express';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { BODY_LIMITS, type BodyLimit as Limit, type BodyLimitName, MESSAGES, MessageCode } from '@vigil/proto';
import { jsonShapeProblem } from './json-shape';

const BODY_LIMIT = 'vigil:body-limit';

/**
 * The JSON body this route accepts: a named limit of `BODY_LIMITS` (size, nesting, members of one list, values in
 * all). A route that declares none gets 'default' (16 KB, 1,000 members in one list). Declared beside the route so a
 * route that carries long lists (a status page's 100,000 components) says so where it is written.
 */
export const BodyLimit = (name: BodyLimitName) => SetMetadata(BODY_LIMIT, name);

interface RouteLimit {
  method: string;
  pattern: RegExp;
  /** Path parameters in the route: a route with fewer wins over one with more (`/monitors/test` over `/monitors/:id`). */
  params: number;
  limit: BodyLimitName;
}

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
};

const paths = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [String(value ?? '')]);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/api/status-pages/:slug` as a pattern for a request path (a trailing slash allowed, as Express allows it). */
function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : escape(part)))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * Which limit every body-carrying route declared, read from the controllers' route metadata, so the parser (which runs
 * before Nest routes the request) knows it by method and path.
 */
export class BodyLimits {
  private readonly routes: RouteLimit[] = [];

  constructor(controllers: Iterable<Type>, prefix = '/api') {
    for (const controller of controllers) {
      const base = paths(Reflect.getMetadata(PATH_METADATA, controller));
      const proto = controller.prototype as Record<string, unknown>;
      for (const key of Object.getOwnPropertyNames(proto)) {
        const handler = key === 'constructor' ? undefined : Object.getOwnPropertyDescriptor(proto, key)?.value;
        if (typeof handler !== 'function') continue;
        const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        if (!method) continue;
        const limit = (Reflect.getMetadata(BODY_LIMIT, handler) as BodyLimitName | undefined) ?? 'default';
        for (const outer of base) {
          for (const inner of paths(Reflect.getMetadata(PATH_METADATA, handler))) {
            const path = ['', prefix, outer, inner]
              .join('/')
              .replace(/\/{2,}/g, '/')
              .replace(/(.)\/$/, '$1');
            this.routes.push({ method, pattern: patternOf(path), params: (path.match(/\/:/g) ?? []).length, limit });
          }
        }
      }
    }
    this.routes.sort((a, b) => a.params - b.params);
  }

  /** The limit of the route a request goes to; 'default' for any path no route declares (a 404 anyway). */
  for(method: string, path: string): BodyLimitName {
    return this.routes.find((route) => route.method === method && route.pattern.test(path))?.limit ?? 'default';
  }
}

class CostlyShapeError extends Error {
  readonly status = 400;
  constructor(readonly type: 'entity.too.deep' | 'entity.too.wide') {
    super('JSON body shape over the limits');
  }
}

/** Runs on the raw bytes before JSON.parse: a hostile shape never reaches the parser, validator or our code. */
const refuseCostlyShapes =
  (limit: Limit) =>
  (_req: unknown, _res: unknown, raw: Buffer): void => {
    const problem = jsonShapeProblem(raw, limit);
    if (problem) throw new CostlyShapeError(problem === 'depth' ? 'entity.too.deep' : 'entity.too.wide');
  };

const parsers = Object.fromEntries(
  Object.entries(BODY_LIMITS).map(([name, limit]): [string, RequestHandler] => [
    name,
    json({ limit: limit.bytes, verify: refuseCostlyShapes(limit) }),
  ]),
) as Record<BodyLimitName, RequestHandler>;

/** JSON bodies within the limit their route declared; anything else about the body is the parser's to refuse. */
export function parseJsonBody(limits: BodyLimits): RequestHandler {
  return (req, res, next) => parsers[limits.for(req.method, req.path)](req, res, next);
}

const BODY_ERRORS: Record<string, [number, MessageCode]> = {
  'entity.too.large': [413, 'request.bodyTooLarge'],
  'entity.parse.failed': [400, 'request.malformedJson'],
  'entity.too.deep': [400, 'request.tooDeep'],
  'entity.too.wide': [400, 'request.tooManyItems'],
};

/** Body-parser failures happen before Nest sees the request, so they get their answer here. */
export const bodyErrorHandler: ErrorRequestHandler = (error, _req, res, next) => {
  const known = BODY_ERRORS[(error as { type?: string }).type ?? ''];
  const status = (error as { status?: number }).status;
  if (known) {
    res.status(known[0]).json({ success: false, message: MESSAGES[known[1]], code: known[1] });
  } else if (typeof status === 'number' && status < 500) {
    res.status(status).json({ success: false, message: MESSAGES['validation.failed'] });
  } else {
    next(error);
  }
};

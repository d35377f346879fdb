import { json } from 'express';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { BODY_LIMITS, JSON_DEPTH_MAX, JSON_VALUES_MAX, JSON_WIDTH_MAX, MESSAGES, MessageCode } from '@vigil/proto';
import { jsonShapeProblem } from './json-shape';

type BodyLimit = keyof typeof BODY_LIMITS;

/** Which limit a path gets; first match wins, anything unlisted gets `default`. Paths are without the query. */
const ROUTE_LIMITS: Array<[RegExp, BodyLimit]> = [
  [/^\/api\/auth\/login\/?$/i, 'credentials'],
  [/^\/api\/auth\/register\/?$/i, 'account'],
  [/^\/api\/users(\/[^/]+(\/change-password)?)?\/?$/i, 'account'],
  [/^\/api\/notifications\/(channels|settings|templates)(\/.*)?$/i, 'medium'],
  [/^\/api\/agents\/(enroll|register)\/?$/i, 'medium'],
  [/^\/api\/agents\/status\/?$/i, 'large'],
  [/^\/api\/monitors(\/[^/]+)?\/?$/i, 'large'],
  [/^\/api\/status\/config\/?$/i, 'large'],
];

export function bodyLimitFor(path: string): BodyLimit {
  return ROUTE_LIMITS.find(([pattern]) => pattern.test(path))?.[1] ?? 'default';
}

class CostlyShapeError extends Error {
  readonly status = 400;
  constructor(readonly type: 'entity.too.deep' | 'entity.too.wide') {
    super('JSON body shape over the limits');
  }
}

const SHAPE = { depth: JSON_DEPTH_MAX, width: JSON_WIDTH_MAX, values: JSON_VALUES_MAX };

/** Runs on the raw bytes before JSON.parse: a hostile shape never reaches the parser, validator or our code. */
function refuseCostlyShapes(_req: unknown, _res: unknown, raw: Buffer): void {
  const problem = jsonShapeProblem(raw, SHAPE);
  if (problem) throw new CostlyShapeError(problem === 'depth' ? 'entity.too.deep' : 'entity.too.wide');
}

const parsers = Object.fromEntries(
  Object.entries(BODY_LIMITS).map(([name, limit]): [string, RequestHandler] => [name, json({ limit, verify: refuseCostlyShapes })]),
) as Record<BodyLimit, RequestHandler>;

/** JSON bodies up to the route's limit, nesting depth and width; anything else about the body is the parser's to refuse. */
export const parseJsonBody: RequestHandler = (req, res, next) => parsers[bodyLimitFor(req.path)](req, res, next);

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

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    requestId?: string;
  }
}

/** A new request id, sent as `X-Request-Id`; the push route, answered before Express, calls it too. */
export function tagResponse(res: ServerResponse): string {
  const id = randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Tags each request so a 500 in the log can be found from the id the client saw. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  req.requestId = tagResponse(res);
  next();
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger as Pino } from 'pino';
import { loggedPath } from './logged-path';

/**
 * One line per HTTP request, written once its answer is sent or the caller went away: method, path (as `loggedPath`
 * shows it), status, duration and request id. Never a header, a body or the query.
 */
export class AccessLog {
  private readonly logger: Pino;

  constructor(root: Pino) {
    this.logger = root.child({ module: 'HTTP' });
  }

  /** Logs `req` when `res` closes; `requestId` is the one its `X-Request-Id` header carries. */
  watch(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, requestId: string | undefined): void {
    // Below `info` (LOG_LEVEL=warn) nothing would be written: pushes at a high rate pay nothing for it.
    if (!this.logger.isLevelEnabled('info')) return;
    const started = performance.now();
    res.once('close', () => {
      // Express rewrites `url` below a mounted router; `originalUrl` is what the caller asked for.
      const path = loggedPath(req.originalUrl ?? req.url ?? '');
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      this.logger.info(
        { requestId, method: req.method, path, status, durationMs, ...(aborted ? { aborted } : {}) },
        `${req.method} ${path} ${aborted ? 'aborted' : status} ${durationMs} ms`,
      );
    });
  }

  /** Express's middleware, after `requestId` has tagged the request. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    this.watch(req, res, req.requestId);
    next();
  };
}

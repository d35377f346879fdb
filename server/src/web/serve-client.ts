import { Logger } from '@nestjs/common';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Paths the single-page app never owns: the API (unknown paths there are JSON 404s), sockets, built assets. */
const SERVER_PATHS = /^\/(api|socket\.io|assets|downloads)(\/|$)/;

/**
 * Serves the built client. Hashed assets are cached for a year; `index.html` never, so a new release shows at once.
 * Any other GET that accepts HTML gets `index.html`, so a deep link like `/monitors/12` opens the app.
 */
export function serveClient(app: Express, clientDir: string): void {
  const logger = new Logger('ServeClient');
  const indexFile = join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    logger.warn(`No built client at ${clientDir}; run "npm run build" to serve the web interface`);
    return;
  }
  app.use(
    '/assets',
    express.static(join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: true }),
  );
  app.use(express.static(clientDir, { index: false, maxAge: 0 }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || SERVER_PATHS.test(req.path) || !req.accepts('html')) {
      return next();
    }
    res.setHeader('Cache-Control', 'no-cache');
    // A wall screen's URL carries its display key: never hand it to other sites as a referrer.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.sendFile(indexFile);
  });
}

import { Logger } from '@nestjs/common';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserConfig } from '../config/browser-config';
import { newNonce, setAppHeaders } from './security-headers';
import { PageRouting, serveStatusPages } from './serve-status-pages';

/** Paths the single-page app never owns: the API (unknown paths there are JSON 404s), sockets, built assets. */
const SERVER_PATHS = /^\/(api|socket\.io|assets|downloads)(\/|$)/;
/** What the client build writes where each page's CSP nonce goes (`html.cspNonce` in client/vite.config.ts). */
export const NONCE_PLACEHOLDER = 'VIGIL_CSP_NONCE';

/**
 * Serves the built client. Hashed assets are cached for a year; `index.html` never, so a new release shows at once.
 * Any other GET that accepts HTML gets `index.html` with a fresh nonce and the app's CSP, so a deep link like
 * `/monitors/12` opens the app.
 */
export function serveClient(app: Express, clientDir: string, browser: BrowserConfig, pages?: PageRouting): void {
  const logger = new Logger('ServeClient');
  const indexFile = join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    logger.warn(`No built client at ${clientDir}; run "npm run build" to serve the web interface`);
    return;
  }
  const page = readFileSync(indexFile, 'utf8');
  const sendPage = (req: Request, res: Response) => {
    const nonce = newNonce();
    res.setHeader('Cache-Control', 'no-cache');
    setAppHeaders(browser, req, res, nonce);
    res.type('html').send(page.replaceAll(NONCE_PLACEHOLDER, nonce));
  };
  app.get('/index.html', sendPage);
  app.use('/assets', express.static(join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: true }));
  // The public status pages' own bundle, before the operator app's fallback.
  if (pages) serveStatusPages(app, clientDir, browser, pages, NONCE_PLACEHOLDER);
  const files = express.static(clientDir, { index: false, maxAge: 0 });
  // A server path is never one of these files: no look-up on disk for each API request (pushes, agents' reports).
  app.use((req: Request, res: Response, next: NextFunction) => (SERVER_PATHS.test(req.path) ? next() : files(req, res, next)));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || SERVER_PATHS.test(req.path) || !req.accepts('html')) {
      return next();
    }
    sendPage(req, res);
  });
}

import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { isEmbeddablePath } from '@vigil/proto';
import { BrowserConfig } from '../config/browser-config';

/** A host header we are willing to echo into the CSP (name or IP, optional port); anything else is left out. */
const SAFE_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/** `frame-ancestors` of a page: the configured sources on the display pages, this origin everywhere else. */
function framingOf(config: BrowserConfig, path: string): string[] {
  return isEmbeddablePath(path) ? config.frameAncestors : ["'self'"];
}

/**
 * `X-Frame-Options` for browsers that ignore `frame-ancestors`. It can only say same-origin or never, so an
 * allow-list of other origins sends none (browsers that know CSP follow `frame-ancestors` and ignore it anyway).
 */
function frameOptionsOf(ancestors: string[]): string | null {
  if (ancestors.length === 1 && ancestors[0] === "'self'") return 'SAMEORIGIN';
  if (ancestors.length === 1 && ancestors[0] === "'none'") return 'DENY';
  return null;
}

/** Headers every answer gets (API, downloads, assets, API docs, pushes): no MIME sniffing, no referrer, not framed elsewhere. */
const BASE_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['Content-Security-Policy', "frame-ancestors 'self'"],
];

/** Sets the headers every answer gets; the push route, answered before Express, calls it too. */
export function setBaseSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of BASE_SECURITY_HEADERS) res.setHeader(name, value);
}

export function baseSecurityHeaders(_req: Request, res: Response, next: NextFunction): void {
  setBaseSecurityHeaders(res);
  next();
}

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The app page's policy. Scripts only from this origin (the build has no inline script); style elements need the
 * page's nonce, which the client hands to Mantine and to its own status-page style element (Mantine writes its
 * CSS variables and responsive style props into `<style>` elements at run time). Images and fonts: this origin,
 * data:, and the origins allowed for the status page's logo and CSS; images also blob: (a browser monitor's failure
 * screenshot is read with the session's token and shown from an object URL, which only this page can mint).
 */
export function appPolicy(config: BrowserConfig, req: Request, nonce: string): string {
  const host = req.headers.host && SAFE_HOST.test(req.headers.host) ? req.headers.host : null;
  const assets = ["'self'", 'data:', ...config.assetOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src ${assets} blob:`,
    `font-src ${assets}`,
    // socket.io: 'self' covers ws/wss to this host in current browsers; named explicitly for older ones.
    `connect-src 'self'${host ? ` ws://${host} wss://${host}` : ''}`,
    "object-src 'none'",
    // The service worker that shows browser notifications (/sw.js); named so the push feature never depends on fallbacks.
    "worker-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${framingOf(config, req.path).join(' ')}`,
  ].join('; ');
}

/** Sets the app page's CSP and the framing header that agrees with it. */
export function setAppHeaders(config: BrowserConfig, req: Request, res: Response, nonce: string): void {
  res.setHeader('Content-Security-Policy', appPolicy(config, req, nonce));
  const frameOptions = frameOptionsOf(framingOf(config, req.path));
  if (frameOptions) res.setHeader('X-Frame-Options', frameOptions);
  else res.removeHeader('X-Frame-Options');
}

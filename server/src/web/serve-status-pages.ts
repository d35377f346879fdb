import type { Express, NextFunction, Request, Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PAGE_SLUG, MESSAGES, PAGE_SLUG_PATTERN } from '@vigil/proto';
import { BrowserConfig } from '../config/browser-config';
import { newNonce, setAppHeaders } from './security-headers';

/** `/status` (the default page) and `/status/<slug>`; `/status/config` stays the operator app's. */
const PAGE_PATH = /^\/status(?:\/([^/]+))?\/?$/;

/** What the routing needs of the pages: which page a host name serves, and whether a slug names one. */
export interface PageRouting {
  byDomain(host: string): Promise<{ slug: string } | null>;
  bySlug(slug: string): Promise<{ slug: string; domain: string | null } | null>;
}

/** The page's HTML with the nonce in place and the page it shows named for the bundle (`<meta name="vigil-page">`). */
function pageHtml(template: string, slug: string, nonce: string, placeholder: string): string {
  return template.replaceAll(placeholder, nonce).replace('</head>', `<meta name="vigil-page" content="${slug}">\n</head>`);
}

/**
 * Serves the public status page bundle (`status.html`, its own small bundle, not the operator app) for `/status`,
 * `/status/<slug>` and, on a page's custom domain (the Host header; X-Forwarded-Host only from a proxy TRUST_PROXY
 * names, as Express reads `req.hostname`), for `/`. A page's domain serves that page only: `/status/<other>` there is
 * a 404 naming the problem. Without a built `status.html` the operator app keeps serving `/status` as before.
 */
export function serveStatusPages(app: Express, clientDir: string, browser: BrowserConfig, pages: PageRouting, placeholder: string): void {
  const file = join(clientDir, 'status.html');
  if (!existsSync(file)) return;
  const template = readFileSync(file, 'utf8');
  const send = (req: Request, res: Response, slug: string, status = 200) => {
    const nonce = newNonce();
    res.status(status).setHeader('Cache-Control', 'no-cache');
    setAppHeaders(browser, req, res, nonce);
    res.type('html').send(pageHtml(template, slug, nonce, placeholder));
  };
  const refuse = (res: Response) =>
    res.status(404).json({ success: false, message: MESSAGES['statusPages.otherDomain'], code: 'statusPages.otherDomain' });

  app.get('/status.html', (req, res) => send(req, res, DEFAULT_PAGE_SLUG));
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.accepts('html')) return next();
    const match = PAGE_PATH.exec(req.path);
    if (req.path !== '/' && !match) return next();
    const named = match ? (match[1] ?? DEFAULT_PAGE_SLUG) : null;
    if (named === 'config') return next();
    const own = await pages.byDomain((req.hostname ?? '').toLowerCase());
    if (own) {
      if (named === null || named === own.slug) return send(req, res, own.slug);
      return refuse(res);
    }
    if (named === null) return next();
    if (named !== DEFAULT_PAGE_SLUG && !PAGE_SLUG_PATTERN.test(named)) return next();
    const page = await pages.bySlug(named);
    // An unknown page still gets the bundle (it says so itself), with the honest status.
    return send(req, res, named, page ? 200 : 404);
  });
}

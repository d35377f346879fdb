// Chromium measurements for `npm run bench:status`: Debian's /usr/bin/chromium through playwright-core (flags as in
// test/support/browser.ts), one fresh context per load so nothing comes from a cache. Bytes are counted with the
// DevTools protocol (`Network.loadingFinished`'s encodedDataLength: what crossed the wire, headers included).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

export async function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Runs in the page before its scripts: notes when the banner and the first group are on screen (DOM, next frame). */
function firstContentProbe() {
  const shown = () => {
    const banner = document.querySelector('[data-testid="status-overall"]');
    const group = document.querySelector('[data-testid="status-group-0"]');
    if (!banner || !group) return false;
    // An open first group counts once its rows are there; a collapsed one with its header.
    const open = group.querySelector('[aria-expanded="true"]');
    return !open || group.querySelector('.vp-item') !== null;
  };
  const observer = new MutationObserver(() => {
    if (window.__firstContentDom !== undefined || !shown()) return;
    window.__firstContentDom = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => (window.__firstContentFrame = performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

/** A page in a fresh context with a byte counter per request; `session` (token, user) signs it in. */
export async function openCounted(browser, { session, viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport });
  if (session) {
    await context.addInitScript((stored) => {
      localStorage.setItem('token', stored.token);
      localStorage.setItem('user', JSON.stringify(stored.user));
    }, session);
  }
  await context.addInitScript(firstContentProbe);
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', ({ requestId, request, timestamp }) =>
    requests.set(requestId, { url: request.url, bytes: 0, done: false, sent: timestamp, ms: null }),
  );
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength, timestamp }) => {
    const entry = requests.get(requestId);
    if (entry) Object.assign(entry, { bytes: encodedDataLength, done: true, ms: (timestamp - entry.sent) * 1000 });
  });
  const since = () => {
    const mark = new Set(requests.keys());
    return () => [...requests.entries()].filter(([id]) => !mark.has(id)).map(([, entry]) => entry);
  };
  return { context, page, cdp, requests: () => [...requests.values()], since, close: () => context.close() };
}

/** Sums of what a load fetched: API data (`/api/`), scripts, stylesheets; and the gzip size of those assets on disk. */
export function tally(entries, clientDir) {
  const sum = (test) => entries.filter((entry) => test(new URL(entry.url).pathname)).reduce((total, entry) => total + entry.bytes, 0);
  const assets = entries.map((entry) => new URL(entry.url).pathname).filter((path) => path.startsWith('/assets/'));
  const gzip = (ext) =>
    assets
      .filter((path) => path.endsWith(ext))
      .reduce((total, path) => total + gzipSync(readFileSync(join(clientDir, path)), { level: 9 }).length, 0);
  return {
    apiBytes: sum((path) => path.startsWith('/api/')),
    apiRequests: entries.filter((entry) => new URL(entry.url).pathname.startsWith('/api/')).length,
    jsBytes: sum((path) => path.endsWith('.js')),
    cssBytes: sum((path) => path.endsWith('.css')),
    jsGzip: gzip('.js'),
    cssGzip: gzip('.css'),
    assets: assets.length,
  };
}

/** DOM elements and the JS heap after a collection. */
export async function weight(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  return { domNodes, heapMiB: usedSize / 1024 / 1024 };
}

/** Loads a status page and measures it: first meaningful content, bytes, DOM, heap. */
export async function loadStatusPage(browser, url, clientDir) {
  const counted = await openCounted(browser);
  const { page, cdp } = counted;
  const started = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__firstContentFrame !== undefined);
  const timing = await page.evaluate(() => ({
    dom: window.__firstContentDom,
    frame: window.__firstContentFrame,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
  }));
  await page.waitForLoadState('networkidle');
  const wallMs = Date.now() - started;
  return { counted, timing, wallMs, bytes: tally(counted.requests(), clientDir), ...(await weight(page, cdp)) };
}

/** Opens the first collapsed group and measures the read: time until its rows show, bytes, DOM after. */
export async function expandCollapsed(counted) {
  const { page, cdp } = counted;
  const toggle = page.locator('[data-testid^="status-group-toggle-"][aria-expanded="false"]').first();
  const testId = await toggle.getAttribute('data-testid');
  const index = testId.replace('status-group-toggle-', '');
  const fresh = counted.since();
  // Timed from the click's arrival in the page (Playwright's own checks before clicking are not the page's time).
  await page.evaluate(() =>
    document.addEventListener('click', () => (window.__clickedAt = performance.now()), { capture: true, once: true }),
  );
  await toggle.click();
  const shownAt = await page.evaluate(
    (group) =>
      new Promise((resolve) => {
        const check = () => document.querySelectorAll(`[data-testid="status-group-${group}"] .vp-item`).length > 0;
        if (check()) return resolve(performance.now());
        const observer = new MutationObserver(() => {
          if (!check()) return;
          observer.disconnect();
          resolve(performance.now());
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
    index,
  );
  const rows = await page.locator(`[data-testid="status-group-${index}"] .vp-item`).count();
  await page.waitForLoadState('networkidle');
  const reads = fresh().filter((entry) => new URL(entry.url).pathname.startsWith('/api/'));
  const apiBytes = reads.reduce((total, entry) => total + entry.bytes, 0);
  const apiMs = reads.reduce((total, entry) => total + (entry.ms ?? 0), 0);
  const clickedAt = await page.evaluate(() => window.__clickedAt);
  return { group: Number(index), ms: shownAt - clickedAt, apiMs, rows, apiBytes, ...(await weight(page, cdp)) };
}

/** Resolves with Date.now() (in the page) once the element's `data-status` reads `status`. */
export function whenStatus(page, testId, status) {
  return page.evaluate(
    ({ testId, status }) =>
      new Promise((resolve) => {
        const check = () => document.querySelector(`[data-testid="${testId}"]`)?.getAttribute('data-status') === status;
        if (check()) return resolve(Date.now());
        const observer = new MutationObserver(() => {
          if (!check()) return;
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-status'] });
      }),
    { testId, status },
  );
}

// Change → DOM latency for `npm run bench:live`: one headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core, flags as in test/support/browser.ts) with two pages in separate contexts: the dashboard signed in
// (the session put in localStorage under `token` and `user`, as client/src/features/auth/session.ts keeps it) and
// the public status page, anonymous.
//
// A script installed before the app loads watches each page with a MutationObserver (subtree, childList, and the
// `data-status` attribute). After every batch of mutations it reads every element carrying `data-status` and a
// `data-testid`, works out which bench monitor it belongs to (the id at the end of the test id, e.g.
// `status-monitor-status-12` or `monitor-status-12`; otherwise the one bench monitor name in its text or its nearest
// ancestor's, e.g. a `dashboard-feed-entry`), and records {monitor, kind, status, at} whenever an element appears or
// its status changes. `at` is Date.now() in the observer callback (the DOM is changed, before paint); `frame` is
// Date.now() in the next requestAnimationFrame callback after it (about when it is painted). `kind` is the test id
// without its trailing number. Elements without a test id (the uptime bar's dots) are left out, unless no element
// with a test id was found for any bench monitor at all (the screens are rebuilt meanwhile): then every
// `data-status` element is used, matched by name only, and the result says so (`fallback`).
// The records are read once at the end and matched to the changes like the sockets' pushes.
import { chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** Runs in the page, before any of the app's scripts. */
function observer(config) {
  const monitors = config.monitors.map((m) => ({ id: m.id, name: m.name }));
  const ids = new Set(monitors.map((m) => m.id));
  const records = [];
  const lastStatus = new WeakMap();
  const owners = new WeakMap();
  const info = { scans: 0, fallback: false, kindsSeen: {} };
  window.__liveRecords = records;
  window.__liveInfo = info;

  function owner(element) {
    if (owners.has(element)) return owners.get(element);
    const testId = element.getAttribute('data-testid');
    let id = null;
    const numbered = testId ? /-(\d+)$/.exec(testId) : null;
    if (numbered && ids.has(Number(numbered[1]))) id = Number(numbered[1]);
    else {
      for (let node = element, depth = 0; node && depth < 8 && id === null; node = node.parentElement, depth += 1) {
        const text = node.textContent ?? '';
        const found = monitors.filter((m) => text.includes(m.name));
        if (found.length === 1) id = found[0].id;
        else if (found.length > 1) break;
      }
    }
    const result = id === null ? null : { id, kind: testId ? testId.replace(/-?\d+$/, '') : 'no-testid (text match)' };
    // Only elements with a test id are cached: a name may not be rendered yet around a bare element.
    if (result || testId) owners.set(element, result);
    return result;
  }

  function scan() {
    info.scans += 1;
    const now = Date.now();
    const fresh = [];
    const elements = document.querySelectorAll('[data-status]');
    let withTestId = 0;
    for (const element of elements) {
      if (!element.hasAttribute('data-testid')) continue;
      const who = owner(element);
      if (!who) continue;
      withTestId += 1;
      const status = element.getAttribute('data-status');
      if (lastStatus.get(element) === status) continue;
      lastStatus.set(element, status);
      const entry = { id: who.id, kind: who.kind, status, at: now, frame: null };
      records.push(entry);
      fresh.push(entry);
      info.kindsSeen[who.kind] = (info.kindsSeen[who.kind] ?? 0) + 1;
    }
    if (withTestId === 0 && info.fallback) {
      for (const element of elements) {
        if (element.hasAttribute('data-testid')) continue;
        const who = owner(element);
        if (!who) continue;
        const status = element.getAttribute('data-status');
        if (lastStatus.get(element) === status) continue;
        lastStatus.set(element, status);
        const entry = { id: who.id, kind: who.kind, status, at: now, frame: null };
        records.push(entry);
        fresh.push(entry);
        info.kindsSeen[who.kind] = (info.kindsSeen[who.kind] ?? 0) + 1;
      }
    }
    if (fresh.length) {
      requestAnimationFrame(() => {
        const painted = Date.now();
        for (const entry of fresh) entry.frame = painted;
      });
    }
  }
  window.__liveScan = scan;

  const start = () => {
    new MutationObserver(scan).observe(document.documentElement, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-status'],
    });
    scan();
  };
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

/**
 * Opens both pages and waits until each shows every bench monitor it can as `up` with its live socket connected
 * (bounded; what could not be confirmed is returned in `notes`).
 */
export async function openPages({ base, token, user, monitors, log }) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // This process's Ctrl-C cleanup closes the browser; Playwright's own handlers would exit the process first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
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
  const notes = [];
  const pages = {};
  try {
    for (const name of ['dashboard', 'status']) {
      const context = await browser.newContext({ baseURL: base, locale: 'en-US', viewport: { width: 1280, height: 800 } });
      if (name === 'dashboard') {
        await context.addInitScript(
          ({ token: t, user: u }) => {
            localStorage.setItem('token', t);
            localStorage.setItem('user', JSON.stringify(u));
          },
          { token, user },
        );
      }
      await context.addInitScript(observer, { monitors });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(name === 'dashboard' ? '/dashboard' : '/status');
      pages[name] = { page, context, errors };
    }
    for (const [name, { page }] of Object.entries(pages)) {
      const live = await page
        .locator('[data-testid="live-badge"][data-connected="true"]')
        .waitFor({ timeout: 20_000 })
        .then(() => true)
        .catch(() => false);
      if (!live) notes.push(`${name}: no [data-testid="live-badge"][data-connected="true"] within 20 s (measured anyway)`);
      // Every bench monitor the page shows with a test id, up; bounded.
      const deadline = Date.now() + 20_000;
      let shown = null;
      while (Date.now() < deadline) {
        shown = await page.evaluate(() => {
          window.__liveScan();
          const latest = new Map();
          for (const r of window.__liveRecords) latest.set(`${r.kind}|${r.id}`, r.status);
          return { entries: [...latest.entries()], info: window.__liveInfo };
        });
        const statuses = shown.entries.filter(([key]) => !key.startsWith('dashboard-feed-entry')).map(([, status]) => status);
        if (statuses.length > 0 && statuses.every((s) => s === 'up')) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const kinds = Object.keys(shown?.info.kindsSeen ?? {});
      if (!kinds.length) {
        notes.push(
          `${name}: no element with data-status and data-testid belongs to a bench monitor; falling back to any data-status element matched by the monitor's name`,
        );
        await page.evaluate(() => {
          window.__liveInfo.fallback = true;
          window.__liveScan();
        });
      }
      log(`  ${name} page ready: ${shown?.entries.length ?? 0} monitor elements (${kinds.join(', ') || 'none'})`);
    }
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
  return {
    notes,
    async collect() {
      const out = {};
      for (const [name, { page, errors }] of Object.entries(pages)) {
        out[name] = await page
          .evaluate(() => ({ records: window.__liveRecords, info: window.__liveInfo }))
          .catch((error) => ({ records: [], info: { error: error.message } }));
        out[name].pageErrors = errors.slice(0, 5);
      }
      return out;
    },
    close: () => browser.close().catch(() => {}),
  };
}

/** Per change, the first record of its monitor showing its new status in [from, until); by kind and overall. */
export function matchDom(records, changes) {
  const overall = [];
  const frames = [];
  const byKind = {};
  let missed = 0;
  let raced = 0;
  for (const change of changes) {
    let first = null;
    const firstByKind = {};
    for (const r of records) {
      if (r.id !== change.monitorId || r.status !== change.status || r.at < change.from || r.at >= change.until) continue;
      if (!first || r.at < first.at) first = r;
      if (!firstByKind[r.kind] || r.at < firstByKind[r.kind].at) firstByKind[r.kind] = r;
    }
    for (const [kind, r] of Object.entries(firstByKind)) {
      byKind[kind] ??= [];
      if (r.at >= change.at) byKind[kind].push(r.at - change.at);
    }
    if (!first) {
      missed += 1;
      continue;
    }
    if (first.at < change.at) {
      raced += 1;
      continue;
    }
    overall.push(first.at - change.at);
    if (first.frame) frames.push(first.frame - change.at);
  }
  return { overall, frames, byKind, missed, raced };
}

import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { BrowserContext, Page, Response } from 'playwright-core';
import {
  describeRefusal,
  outboundRefusal,
  resolveAllowed,
  urlEndpoint,
  type AddressGuard,
  type OutboundGuards,
} from '../../../common/outbound';
import { evaluateAssertions, firstFailure } from '../../checkers/assertions';
import type { Checker, CheckTarget, Endpoint, Observed, PeerCertificate, ProbeResult } from '../../checkers/checker';
import { failedProbe, ProbeFailure } from '../../checkers/failure';
import { BrowserPool } from './browser-pool';
import { firstLine, pageText, readSteps, runStep } from './browser-steps';
import { GuardProxy, REFUSED_HEADER } from './guard-proxy';

type SecurityDetails = NonNullable<Awaited<ReturnType<Response['securityDetails']>>>;

/** The part of the page's text kept as `body`. */
const BODY_LIMIT = 64 * 1024;
/** A failure's screenshot larger than this is not kept (a 1280×800 PNG is usually far smaller). */
const SCREENSHOT_MAX_BYTES = 2 * 1024 * 1024;
/** Kept out of the steps' share of the timeout so a failing check still has time for its screenshot. */
const SCREENSHOT_RESERVE_MS = 2000;
/** Closing a context whose page hangs is cut short after this; its slot is freed once it ends. */
const CLOSE_GRACE_MS = 5000;

/** Where a failure's screenshot goes (browser-screenshots.ts stores the last one per monitor). */
export interface ScreenshotSink {
  keep(monitorId: number, shot: { png: Buffer; error: string; takenAt: Date }): Promise<void>;
}

/**
 * A synthetic check in headless Chromium: load the URL in a fresh context of the shared browser, run the steps, and
 * observe the main answer's status, the time to its first byte (`responseTime`) and to the load event (`loadTime`),
 * console errors, the final URL and the page's text (`body`). The URL is judged by the outbound policy before it
 * loads, and every connection of the page goes through a proxy of the check's own that connects only to allowed
 * addresses (see GuardProxy). A check that fails (the probe, or a hard assertion) keeps a screenshot of its page.
 */
export class BrowserChecker implements Checker<'browser'> {
  readonly type = 'browser';
  private readonly logger = new Logger(BrowserChecker.name);
  private readonly pool: BrowserPool;
  private readonly outbound: OutboundGuards;
  private screenshots: ScreenshotSink | null = null;

  constructor(deps: { outbound: OutboundGuards; chromiumPath: string; concurrency: number }) {
    this.outbound = deps.outbound;
    this.pool = new BrowserPool({ chromiumPath: deps.chromiumPath, concurrency: deps.concurrency });
  }

  /** Where failures' screenshots are kept from now on (wired once the database is up). */
  keepScreenshots(sink: ScreenshotSink): void {
    this.screenshots = sink;
  }

  endpoint(target: CheckTarget<'browser'>): Endpoint | null {
    return urlEndpoint(target.url);
  }

  async check(target: CheckTarget<'browser'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const timeoutMs = target.timeout * 1000;
    const deadline = Date.now() + timeoutMs;
    const observed: Observed = { metrics: {} };
    let release: (() => void) | null = null;
    let context: BrowserContext | null = null;
    let proxy: GuardProxy | null = null;
    let page: Page | null = null;
    let statusCode: number | null = null;
    let responseTime: number | null = null;
    let probe: ProbeResult;
    try {
      release = await this.pool.acquire(AbortSignal.timeout(timeoutMs)).catch(() => {
        throw new ProbeFailure(`Timeout after ${target.timeout} s waiting for a browser (${this.pool.busy} browser checks in flight)`);
      });
      const steps = readSteps(target.settings);
      if (!/^https?:\/\//i.test(target.url)) throw new ProbeFailure('The URL must start with http:// or https://');
      const guard = this.outbound.guard(target.scope);
      await bounded(judgeUrl(target.url, guard), deadline, target.timeout);
      const browser = await bounded(this.pool.chromium(), deadline, target.timeout);
      proxy = new GuardProxy(guard);
      const creating = browser.newContext({
        // `<-loopback>`: Chromium would otherwise reach loopback directly, past the proxy.
        proxy: { server: await proxy.start(), bypass: '<-loopback>' },
        ignoreHTTPSErrors: target.settings.ignoreTls === true,
        serviceWorkers: 'block',
        acceptDownloads: false,
        viewport: { width: 1280, height: 800 },
      });
      // A context a wedged browser hands over after the deadline is closed then, not leaked.
      context = await bounded(creating, deadline, target.timeout).catch((error: unknown) => {
        void creating.then((late) => late.close()).catch(() => undefined);
        throw error;
      });
      page = await bounded(context.newPage(), deadline, target.timeout);
      const opened = page;
      // Playwright's own timeouts end the steps by `budgetEnd`; the bound after it only cuts a page stuck in a script.
      const reserve = Math.min(SCREENSHOT_RESERVE_MS, timeoutMs / 5);
      const budgetEnd = deadline - reserve;
      const run = async () => {
        const left = () => Math.max(1, budgetEnd - Date.now());
        const loaded = await load(opened, target, proxy!, observed, left);
        responseTime = loaded.responseTime;
        statusCode = loaded.response?.status() ?? null;
        if (statusCode !== null && statusCode >= 400) throw new ProbeFailure(`The page answered HTTP ${statusCode}`, statusCode);
        const secret = typeof target.settings.stepSecret === 'string' ? target.settings.stepSecret : '';
        for (const [index, step] of steps.entries()) await runStep(opened, step, index, left(), secret);
        observed.body = await opened.evaluate(pageText, BODY_LIMIT);
      };
      await bounded(run(), budgetEnd + reserve / 2, target.timeout);
      probe = { ok: true, statusCode, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      probe = failedProbe(error, { checkedAt, observed, statusCode, timeoutSeconds: target.timeout }, describeBrowserFailure);
    } finally {
      if (page && !page.isClosed() && observed.metrics) observed.metrics.finalUrl = page.url();
    }
    try {
      if (page) await this.keepScreenshotOnFailure(target, probe, page, deadline);
    } finally {
      finish(context, proxy, release);
    }
    return probe;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** Keeps the page's screenshot when the check failed (its probe, or an assertion that is not soft). */
  private async keepScreenshotOnFailure(target: CheckTarget<'browser'>, probe: ProbeResult, page: Page, deadline: number) {
    if (!this.screenshots || target.id <= 0 || page.isClosed()) return;
    const error = probe.ok
      ? firstFailure(
          evaluateAssertions(
            target.assertions.filter((one) => !one.soft),
            probe,
          ),
        )
      : probe.error;
    if (error === null) return;
    const png = await page
      .screenshot({ type: 'png', timeout: Math.max(200, deadline - Date.now()), animations: 'disabled' })
      .catch(() => null);
    if (!png || png.length > SCREENSHOT_MAX_BYTES) return;
    await this.screenshots
      .keep(target.id, { png, error: error ?? 'Check failed', takenAt: probe.checkedAt })
      .catch((failure: Error) =>
        this.logger.warn({ message: `Screenshot of monitor ${target.id} not kept: ${failure.message}`, monitorId: target.id }),
      );
  }
}

/** Loads the URL until its load event; records its timings and console errors as they come. */
async function load(
  page: Page,
  target: CheckTarget<'browser'>,
  proxy: GuardProxy,
  observed: Observed,
  left: () => number,
): Promise<{ response: Response | null; responseTime: number }> {
  const metrics = observed.metrics!;
  metrics.consoleErrors = 0;
  page.on('console', (message) => message.type() === 'error' && (metrics.consoleErrors = Number(metrics.consoleErrors) + 1));
  page.on('pageerror', () => (metrics.consoleErrors = Number(metrics.consoleErrors) + 1));
  const started = performance.now();
  try {
    const response = await page.goto(target.url, { waitUntil: 'load', timeout: left() });
    if (response?.headers()[REFUSED_HEADER] && proxy.refused) throw new ProbeFailure(describeRefusal(proxy.refused));
    const certificate = pageCertificate(await response?.securityDetails().catch(() => null));
    if (certificate) observed.certificate = certificate;
    const timing = await page.evaluate(navigationTiming);
    metrics.loadTime = Math.round(timing?.loadEventEnd || performance.now() - started);
    return { response, responseTime: Math.round(timing?.responseStart || performance.now() - started) };
  } catch (error) {
    if (error instanceof ProbeFailure) throw error;
    if (proxy.refused) throw new ProbeFailure(describeRefusal(proxy.refused));
    if ((error as Error).name === 'TimeoutError') throw new ProbeFailure(`The page did not load within ${target.timeout} s`);
    const code = /net::ERR_[A-Z_]+/.exec(firstLine(error))?.[0];
    throw new ProbeFailure(`The page failed to load: ${code ?? firstLine(error)}`);
  }
}

/** Fails by name when the outbound policy refuses the URL's address now (other lookup failures are the page's to show). */
async function judgeUrl(url: string, guard: AddressGuard): Promise<void> {
  const endpoint = urlEndpoint(url);
  if (!endpoint) throw new ProbeFailure('The URL is not valid');
  const refusal = await resolveAllowed(endpoint.host, guard, endpoint.port).then(() => null, outboundRefusal);
  if (refusal) throw new ProbeFailure(describeRefusal(refusal));
}

/** Runs in the page: the navigation's timings in milliseconds from its start. */
function navigationTiming(): { responseStart: number; loadEventEnd: number } | null {
  const timings = (globalThis as { performance?: { getEntriesByType(type: string): unknown[] } }).performance;
  const entry = timings?.getEntriesByType('navigation')[0] as { responseStart: number; loadEventEnd: number } | undefined;
  return entry ? { responseStart: entry.responseStart, loadEventEnd: entry.loadEventEnd } : null;
}

/** `work`, or a timeout failure once `deadline` passes (a page stuck in a script never answers an evaluate). */
function bounded<T>(work: Promise<T>, deadline: number, timeoutSeconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeFailure(`Timeout after ${timeoutSeconds} s`)), Math.max(0, deadline - Date.now()));
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Closes the check's context (bounded) and proxy, and only then frees its slot: a hung page still counts against the pool. */
function finish(context: BrowserContext | null, proxy: GuardProxy | null, release: (() => void) | null): void {
  const cut = new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
  void Promise.race([context?.close().catch(() => undefined), cut]).finally(() => {
    proxy?.close();
    release?.();
  });
}

function describeBrowserFailure(error: unknown, timeoutSeconds: number): string {
  if ((error as Error | null)?.name === 'TimeoutError') return `Timeout after ${timeoutSeconds} s`;
  return `Browser check failed: ${firstLine(error)}`;
}

/**
 * The certificate of the page's own https answer, as Chromium saw it, for the expiry alerts and `certificateDays`.
 * Chromium gives no DER through the protocol, so its fingerprint is a SHA-256 of what it gives: a renewal still
 * changes it (a new validity), which is what the fingerprint is for.
 */
export function pageCertificate(details: SecurityDetails | null | undefined): PeerCertificate | null {
  if (!details?.validTo) return null;
  const digest = createHash('sha256')
    .update([details.subjectName, details.issuer, details.validFrom, details.validTo].join('|'))
    .digest('hex')
    .toUpperCase();
  return {
    subject: details.subjectName ?? '',
    issuer: details.issuer ?? '',
    expiresAt: new Date(details.validTo * 1000),
    fingerprint: digest.match(/../g)!.join(':'),
    // The page loaded: Chromium accepted it, or the monitor ignores TLS errors (then the check does not judge it).
    authorizationError: null,
  };
}

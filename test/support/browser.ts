import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS_DIR = join(__dirname, '../../.test-artifacts');

/**
 * Debian's Chromium with the flags this machine needs (no sandbox as root, no background network). Playwright gives
 * every launch a fresh, empty profile directory of its own.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
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
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

export async function newPage(browser: Browser, baseURL: string, locale = 'zh-CN'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Keeps a picture of the page when a step fails, for the CI log to point at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`);
  await page.screenshot({ path, fullPage: true }).catch(() => undefined);
  return path;
}

/**
 * `step(title, body)`: a test that leaves a screenshot of each page `pages()` names in .test-artifacts when it fails
 * (file names start with `prefix`); `explain` may add what the failure needs to be understood (an agent's output).
 */
export function failureScreenshots(
  pages: () => Page[],
  { prefix = '', explain }: { prefix?: string; explain?: (error: Error) => Error } = {},
): (title: string, body: () => Promise<void>) => void {
  return (title, body) => {
    it(title, async () => {
      try {
        await body();
      } catch (error) {
        const shown = pages();
        for (const [index, page] of shown.entries()) await screenshot(page, `${prefix}${title}${shown.length > 1 ? `-${index}` : ''}`);
        throw explain ? explain(error as Error) : error;
      }
    });
  };
}

/** Marks the page's document: the mark survives client-side updates but not a reload (read by documentKept). */
export const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { vigilNoReload: true }));
export const documentKept = (page: Page) => page.evaluate(() => (window as unknown as { vigilNoReload?: boolean }).vigilNoReload === true);

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

import { parseBrowserStep, STEP_SECRET, type BrowserStep } from '@vigil/proto';
import type { Page } from 'playwright-core';
import { ProbeFailure } from '../../checkers/failure';

/** The steps of a monitor's settings, already validated by its spec; an unreadable one fails the check by name. */
export function readSteps(settings: Record<string, unknown>): BrowserStep[] {
  const items = Array.isArray(settings.steps) ? settings.steps : [];
  return items.map((item, index) => {
    const step = typeof item === 'string' ? parseBrowserStep(item) : null;
    if (!step) throw new ProbeFailure(`Step ${index + 1} is not a step (click, fill, waitForText, expectText, expectUrl)`);
    return step;
  });
}

/** A step as the history names it: `click #login`, `expectText "Welcome"`. */
export function stepLabel(step: BrowserStep, index: number): string {
  const argument = 'selector' in step ? step.selector : `"${step.text}"`;
  return `Step ${index + 1} (${step.action} ${argument.slice(0, 80)})`;
}

/**
 * Runs one step on the page, waiting at most `timeoutMs`; a step that fails throws a ProbeFailure naming it and why.
 * `waitForText` waits for the text to appear; `expectText` and `expectUrl` judge the page as it is once loaded. A fill's
 * `{{secret}}` is typed as `secret`; labels never show a fill's value.
 */
export async function runStep(page: Page, step: BrowserStep, index: number, timeoutMs: number, secret = ''): Promise<void> {
  const label = stepLabel(step, index);
  const seconds = Math.max(1, Math.round(timeoutMs / 1000));
  const timedOut = (error: unknown) => (error as Error | null)?.name === 'TimeoutError';
  try {
    switch (step.action) {
      case 'click':
        await page.locator(step.selector).first().click({ timeout: timeoutMs });
        return;
      case 'fill':
        await page.locator(step.selector).first().fill(step.value.split(STEP_SECRET).join(secret), { timeout: timeoutMs });
        return;
      case 'waitForText':
        await page.waitForFunction(hasText, step.text, { timeout: timeoutMs, polling: 100 });
        return;
      case 'expectText':
        await page.waitForLoadState('load', { timeout: timeoutMs });
        if (!(await page.evaluate(hasText, step.text))) throw new ProbeFailure(`${label}: text not found on the page`);
        return;
      case 'expectUrl':
        await page.waitForLoadState('load', { timeout: timeoutMs });
        if (!page.url().includes(step.text)) throw new ProbeFailure(`${label}: the page is at ${page.url().slice(0, 300)}`);
        return;
    }
  } catch (error) {
    if (error instanceof ProbeFailure) throw error;
    if (timedOut(error)) {
      const what = step.action === 'waitForText' ? 'the text did not appear' : 'no such element was ready';
      throw new ProbeFailure(
        `${label}: ${step.action.startsWith('expect') ? 'the page did not finish loading' : what} within ${seconds} s`,
      );
    }
    throw new ProbeFailure(`${label}: ${firstLine(error)}`);
  }
}

/** The page's document as the server (without DOM types) sees it in functions that run in the page. */
type PageGlobal = { document?: { body?: { innerText?: string } | null } };

/** Runs in the page: its visible text, at most `limit` characters. */
export function pageText(limit: number): string {
  return ((globalThis as PageGlobal).document?.body?.innerText ?? '').slice(0, limit);
}

/** Runs in the page: whether its visible text holds `text`. */
function hasText(text: string): boolean {
  return ((globalThis as PageGlobal).document?.body?.innerText ?? '').includes(text);
}

/** An error's first line without Playwright's call log, bounded. */
export function firstLine(error: unknown): string {
  return ((error as Error | null)?.message ?? String(error)).split('\n')[0].slice(0, 300);
}

import type { MonitorTypeSpec } from '../monitor-type-specs';

/**
 * One step of a synthetic browser check, written as `<action> <argument>`:
 * `click <selector>`, `fill <selector> = <value>`, `waitForText <text>`, `expectText <text>`, `expectUrl <part of URL>`.
 * Selectors are Playwright's (CSS, `text=…`, `xpath=…`). A fill's value `{{secret}}` types the monitor's `stepSecret`,
 * so a password is stored as a secret (masked in reads) rather than in the steps.
 */
export type BrowserStep =
  | { action: 'click'; selector: string }
  | { action: 'fill'; selector: string; value: string }
  | { action: 'waitForText' | 'expectText' | 'expectUrl'; text: string };

/** A check runs at most this many steps (each waits up to the rest of the timeout). */
export const BROWSER_STEPS_MAX = 20;

/** `fill`'s selector and value are split at the first ` = ` (selectors such as `input[name=q]` have no spaces round `=`). */
const FILL = /^(\S.*?)\s=(?:\s(.*))?$/;

/** What a fill's value names to type the monitor's `stepSecret`. */
export const STEP_SECRET = '{{secret}}';

/** A step's text read into its parts; null when it is not one. */
export function parseBrowserStep(text: string): BrowserStep | null {
  const match = /^(click|fill|waitForText|expectText|expectUrl)\s+(\S.*)$/.exec(text.trim());
  if (!match) return null;
  const [, action, argument] = match;
  if (action === 'click') return { action, selector: argument.trim() };
  if (action === 'fill') {
    const fill = FILL.exec(argument);
    return fill ? { action, selector: fill[1].trim(), value: (fill[2] ?? '').trim() } : null;
  }
  return { action: action as 'waitForText' | 'expectText' | 'expectUrl', text: argument.trim() };
}

/**
 * A synthetic check in headless Chromium: load `url` (an error status, 400 or more, fails it), run the steps in order,
 * and observe the main answer's status, the load time, console errors, the final URL and the page's text. Uptime Kuma's `real-browser` maps to it (`url`
 * one to one; its remote browsers have no counterpart: checks run in this server's Chromium).
 */
export const BROWSER = {
  name: { 'en-US': 'Browser (synthetic)', 'zh-CN': '浏览器（合成检测）' },
  fields: [
    { name: 'url', kind: 'url', required: true, column: 'url', placeholder: 'https://example.com/login' },
    // One step per line, so a step's text may hold commas and semicolons.
    {
      name: 'steps',
      kind: 'list',
      lines: true,
      max: BROWSER_STEPS_MAX,
      help: true,
      placeholder: 'fill #email = me@example.com\nclick text=Sign in\nexpectText Welcome',
      valid: (item: string) => parseBrowserStep(item) !== null,
    },
    { name: 'stepSecret', kind: 'secret', help: true },
    { name: 'ignoreTls', kind: 'boolean', default: false },
  ],
  sources: ['status', 'responseTime', 'loadTime', 'consoleErrors', 'finalUrl', 'body', 'certificateDays'],
  target: (parts) => (parts.url ?? '').replace(/^https?:\/\//, ''),
  icon: 'browser',
  // An https page's certificate (as Chromium accepted it) is kept and alerted on like any other.
  certificates: true,
} as const satisfies MonitorTypeSpec;

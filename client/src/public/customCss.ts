import { useEffect } from 'react';
import { cspNonce } from './nonce';

/**
 * The class of the status page's outermost element. Custom CSS only ever applies inside it: every selector that
 * does not already start with it is put under it (`h1` → `.vigil-status-page h1`; `body`, `html` and `:root` become
 * the page itself), so a rule cannot restyle the rest of the app.
 */
export const STATUS_PAGE_CLASS = 'vigil-status-page';
const SCOPE = `.${STATUS_PAGE_CLASS}`;

/**
 * Takes out everything that could end a style element or start markup: any `</style` sequence and every `<`. CSS
 * never needs `<` outside strings, and the style element gets its text as a text node anyway, so this is a second
 * wall rather than the only one.
 */
export function sanitizeCustomCss(css: string): string {
  return css.replace(/<\/style/gi, '').replace(/</g, '');
}

/** Splits a selector list at its top-level commas (not those inside `:is(a, b)`, `[x="a,b"]` or strings). */
function splitSelectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let index = 0; index < list.length; index += 1) {
    const char = list[index];
    if (quote) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      parts.push(list.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(list.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** One selector put under the status page. */
export function scopeSelector(selector: string): string {
  const trimmed = selector.trim();
  const nested = `${SCOPE} ${trimmed}`;
  if (trimmed === SCOPE || new RegExp(`^\\${SCOPE}(?![\\w-])`).test(trimmed)) return escapesPage(trimmed) ? nested : trimmed;
  // The document's root and body stand for the page: `body { background: … }` colours the status page only.
  const root = /^(?::root|html)(?![\w-])\s*(?:>\s*)?(?:body(?![\w-]))?|^body(?![\w-])/.exec(trimmed);
  if (root) {
    const page = `${SCOPE}${trimmed.slice(root[0].length)}`;
    return escapesPage(page) ? nested : page;
  }
  return nested;
}

/** A sibling combinator right after the page itself (`.vigil-status-page ~ *`) reaches elements outside it. */
function escapesPage(selector: string): boolean {
  return new RegExp(`^\\${SCOPE}[^\\s~+>]*\\s*[~+]`).test(selector);
}

type RuleWithChildren = CSSRule & { cssRules: CSSRuleList };

function hasChildRules(rule: CSSRule): rule is RuleWithChildren {
  return 'cssRules' in rule;
}

/** Grouping rules whose content is scoped rule by rule; other at-rules (@page, @property…) cannot be scoped. */
const GROUPING_RULES = ['CSSMediaRule', 'CSSSupportsRule', 'CSSContainerRule', 'CSSLayerBlockRule'];
/** At-rules that style nothing by themselves and are kept as written. */
const KEPT_RULES = ['CSSKeyframesRule', 'CSSFontFaceRule', 'CSSLayerStatementRule', 'CSSNamespaceRule'];

/** The rule's interface name: native classes keep their names whatever the bundler minifies. */
function kindOf(rule: CSSRule): string {
  return rule.constructor?.name ?? '';
}

/** Scopes a rule in place; false when the rule cannot be kept. */
function scopeRule(rule: CSSRule): boolean {
  const kind = kindOf(rule);
  if (kind === 'CSSStyleRule') {
    const style = rule as CSSStyleRule;
    style.selectorText = splitSelectors(style.selectorText).map(scopeSelector).join(', ');
    return true;
  }
  if (GROUPING_RULES.includes(kind) && hasChildRules(rule)) {
    const group = rule as RuleWithChildren & CSSGroupingRule;
    for (let index = group.cssRules.length - 1; index >= 0; index -= 1) {
      if (!scopeRule(group.cssRules[index])) group.deleteRule(index);
    }
    return true;
  }
  return KEPT_RULES.includes(kind);
}

/**
 * Scopes custom CSS to the status page with the browser's own parser: the text is read into a detached style sheet
 * (which also drops `@import`), every selector is put under the page, and the rules are written back out. Without a
 * constructable style sheet the text is returned as is (sanitising still applies).
 */
export function scopeCustomCss(css: string): string {
  if (typeof CSSStyleSheet !== 'function') return css;
  let sheet: CSSStyleSheet;
  try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  } catch {
    return css;
  }
  const kept: string[] = [];
  for (const rule of Array.from(sheet.cssRules)) {
    if (scopeRule(rule)) kept.push(rule.cssText);
  }
  return kept.join('\n');
}

/** The text the status page's style element gets: sanitised, scoped, and sanitised again after serialising. */
export function prepareCustomCss(css: string): string {
  // Serialising may turn escapes such as `\3c` back into `<`, hence the second pass.
  return sanitizeCustomCss(scopeCustomCss(sanitizeCustomCss(css)));
}

/** Marks the style element the status page adds, for tests and for anyone reading the DOM. */
export const CUSTOM_CSS_ATTRIBUTE = 'data-vigil-custom-css';

/**
 * Applies the configured CSS while the status page is mounted: a style element created through the DOM (never from
 * markup) with its text as a text node, added to the head and removed on unmount.
 */
export function useCustomCss(css: string | null | undefined): void {
  useEffect(() => {
    if (!css?.trim()) return;
    const style = document.createElement('style');
    style.setAttribute(CUSTOM_CSS_ATTRIBUTE, '');
    if (cspNonce) style.nonce = cspNonce;
    style.appendChild(document.createTextNode(prepareCustomCss(css)));
    document.head.appendChild(style);
    return () => style.remove();
  }, [css]);
}

import * as csstree from 'css-tree';
import { assetSource, MessageCode } from '@vigil/proto';

/** The class of the status page's outermost element (the client's `STATUS_PAGE_CLASS`). */
export const STATUS_PAGE_CLASS = 'vigil-status-page';
const SCOPE = `.${STATUS_PAGE_CLASS}`;

export type CssProblem = Extract<
  MessageCode,
  | 'status.customCssInvalid'
  | 'status.customCssImport'
  | 'status.customCssExternal'
  | 'status.customCssOutsidePage'
  | 'status.customCssAtRule'
>;

export interface ScopedCss {
  /** Only what is safe to serve: every selector under the page, no external fetch, no refused at-rule. */
  css: string;
  /** Why parts were left out, in the order found (empty: the text was served in full). */
  problems: CssProblem[];
}

/** Grouping at-rules whose rules are scoped one by one; `@layer` without a block is kept as a statement. */
const GROUPING = new Set(['media', 'supports', 'container', 'layer']);
/** At-rules that style nothing by themselves; kept as written once their addresses pass. */
const KEPT = new Set(['keyframes', '-webkit-keyframes', 'font-face']);
/** Functions whose arguments the browser fetches (strings included, for the image-set family). */
const FETCHING = /(?<![\w-])(?:-webkit-)?(url|src|image-set|image|cross-fade|element)\(/gi;

/** Comments removed the way the tokenizer sees them: `/*` inside a string is text, not a comment. */
function stripComments(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quote) {
      out += char;
      if (char === '\\') out += text[++index] ?? '';
      else if (char === quote) quote = null;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 1;
    } else if (char === '\\') {
      out += char + (text[++index] ?? '');
    } else {
      if (char === '"' || char === "'") quote = char;
      out += char;
    }
  }
  return out;
}

/** CSS escapes resolved as the browser's tokenizer does (`\75 rl(` is `url(`). */
function decode(text: string): string {
  return text.replace(
    /\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|\r\n|[\n\r\f]|([\s\S]))/gi,
    (_, hex: string | undefined, char: string | undefined) => {
      if (!hex) return char ?? '';
      const code = parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
    },
  );
}

/**
 * Every address a declaration could make the browser fetch: `url()` arguments, and the strings inside the
 * image-set family. A fetching function fed by `var()` cannot be checked, so it counts as external.
 */
function addressesIn(text: string): string[] | 'unknown' {
  // Read with and without comments: inside an unquoted url() `/*` is not a comment, elsewhere it is.
  const withComments = addressesInDecoded(decode(text));
  const withoutComments = addressesInDecoded(decode(stripComments(text)));
  if (withComments === 'unknown' || withoutComments === 'unknown') return 'unknown';
  return [...withComments, ...withoutComments];
}

function addressesInDecoded(decoded: string): string[] | 'unknown' {
  const addresses: string[] = [];
  for (const match of decoded.matchAll(FETCHING)) {
    const rest = decoded.slice((match.index ?? 0) + match[0].length);
    const name = match[1].toLowerCase();
    if (name === 'url') {
      const argument = /^\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/.exec(rest);
      if (!argument) return 'unknown';
      addresses.push(argument[1] ?? argument[2] ?? argument[3] ?? '');
      continue;
    }
    const args = rest.slice(0, closingParen(rest));
    if (/var\(|attr\(|env\(/i.test(args)) return 'unknown';
    for (const literal of args.matchAll(/"([^"]*)"|'([^']*)'/g)) addresses.push(literal[1] ?? literal[2] ?? '');
  }
  return addresses;
}

function closingParen(text: string): number {
  let depth = 1;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '(') depth += 1;
    else if (text[index] === ')' && --depth === 0) return index;
  }
  return text.length;
}

/** Scopes and filters custom CSS for the status page; `allowOrigin` says which external origins an admin allowed. */
export function scopeCustomCss(input: string, allowOrigin: (origin: string) => boolean): ScopedCss {
  const problems: CssProblem[] = [];
  const problem = (code: CssProblem) => problems.push(code);
  let ast: csstree.CssNode;
  try {
    ast = csstree.parse(input, {
      positions: true,
      parseValue: false,
      parseAtrulePrelude: false,
      parseRulePrelude: true,
      onParseError: () => problem('status.customCssInvalid'),
    });
  } catch {
    return { css: '', problems: ['status.customCssInvalid'] };
  }
  const source = (node: csstree.CssNode) => (node.loc ? input.slice(node.loc.start.offset, node.loc.end.offset) : '');

  /** True when nothing in the text fetches from an origin the admin did not allow. */
  const fetchesAllowed = (text: string): boolean => {
    const addresses = addressesIn(text);
    const allowed =
      addresses !== 'unknown' &&
      addresses.every((address) => {
        const from = assetSource(address);
        return from !== null && (from.kind !== 'external' || allowOrigin(from.origin));
      });
    if (!allowed) problem('status.customCssExternal');
    return allowed;
  };

  const declarations = (block: csstree.Block | null): string[] => {
    const kept: string[] = [];
    block?.children.forEach((child) => {
      if (child.type !== 'Declaration') return problem(child.type === 'Raw' ? 'status.customCssInvalid' : 'status.customCssOutsidePage');
      const text = source(child).trim();
      if (fetchesAllowed(text)) kept.push(text);
    });
    return kept;
  };

  const rule = (node: csstree.Rule): string | null => {
    if (node.prelude.type !== 'SelectorList') return (problem('status.customCssInvalid'), null);
    const selectors: string[] = [];
    node.prelude.children.forEach((selector) => {
      const scoped = selector.type === 'Selector' ? scopeSelector(selector) : null;
      if (scoped) selectors.push(scoped);
      else problem('status.customCssOutsidePage');
    });
    const body = declarations(node.block);
    return selectors.length ? `${selectors.join(', ')} {\n  ${body.join(';\n  ')}\n}` : null;
  };

  const atrule = (node: csstree.Atrule): string | null => {
    const name = decode(node.name).toLowerCase();
    const prelude = node.prelude ? source(node.prelude).trim() : '';
    if (name === 'import') return (problem('status.customCssImport'), null);
    if (GROUPING.has(name)) {
      if (!node.block)
        return name === 'layer' && /^[\w\s,.-]+$/.test(prelude) ? `@layer ${prelude};` : (problem('status.customCssAtRule'), null);
      if (decode(prelude).includes('(') && !fetchesAllowed(prelude)) return null;
      return `@${name} ${prelude} {\n${rules(node.block)}\n}`;
    }
    if (KEPT.has(name) && node.block) {
      const text = source(node);
      return fetchesAllowed(text) ? text : null;
    }
    return (problem('status.customCssAtRule'), null);
  };

  const rules = (parent: csstree.StyleSheet | csstree.Block): string => {
    const out: string[] = [];
    parent.children.forEach((child) => {
      const text =
        child.type === 'Rule' ? rule(child) : child.type === 'Atrule' ? atrule(child) : (problem('status.customCssInvalid'), null);
      if (text) out.push(text);
    });
    return out.join('\n');
  };

  const css = rules(ast as csstree.StyleSheet);
  return { css, problems: [...new Set(problems)] };
}

/** One token that stands for the page itself: `html`, `body`, `:root` or the page's own class. */
function isPageToken(node: csstree.CssNode): boolean {
  if (node.type === 'TypeSelector') return ['html', 'body'].includes(node.name.toLowerCase());
  if (node.type === 'PseudoClassSelector') return node.name.toLowerCase() === 'root' && !node.children;
  return node.type === 'ClassSelector' && node.name === STATUS_PAGE_CLASS;
}

/**
 * Puts one selector under the page. A leading chain of page tokens (`html > body`, `:root`, the page's class) becomes
 * the page itself; anything else is made a descendant of it. A selector that would reach past the page — a sibling
 * combinator right after the page, a leading combinator, or `&` outside nesting — is refused (null).
 */
export function scopeSelector(selector: csstree.Selector): string | null {
  const nodes = selector.children.toArray();
  if (!nodes.length || nodes[0].type === 'Combinator') return null;
  let found = false;
  csstree.walk(selector, (node) => {
    if (node.type === 'NestingSelector') found = true;
  });
  if (found) return null;
  // Walk the leading compounds while each is a page token (plus bare pseudo-classes/elements) joined by ' ' or '>'.
  let end = 0;
  let pseudo = '';
  let index = 0;
  while (index < nodes.length && isPageToken(nodes[index])) {
    let next = index + 1;
    let extra = '';
    while (next < nodes.length && (nodes[next].type === 'PseudoClassSelector' || nodes[next].type === 'PseudoElementSelector')) {
      const node = nodes[next] as csstree.PseudoClassSelector | csstree.PseudoElementSelector;
      if (node.children) break;
      extra += csstree.generate(node);
      next += 1;
    }
    if (next < nodes.length && nodes[next].type !== 'Combinator') break;
    end = next;
    pseudo = extra;
    const combinator = nodes[next] as csstree.Combinator | undefined;
    if (!combinator || (combinator.name !== ' ' && combinator.name !== '>')) break;
    index = next + 1;
  }
  const rest = nodes
    .slice(end)
    .map((node) => csstree.generate(node))
    .join('');
  if (end === 0) return `${SCOPE} ${rest}`;
  if (rest && !/^[ >]/.test(rest)) return null;
  return `${SCOPE}${pseudo}${rest.startsWith(' ') || !rest ? rest : ` ${rest.slice(0, 1)} ${rest.slice(1)}`}`;
}

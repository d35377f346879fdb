import MarkdownIt from 'markdown-it';

/** Schemes a rendered link may use; anything else (javascript:, data:, vbscript:, file:, relative paths) stays text. */
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const LINK_REL = 'nofollow noopener noreferrer';

/** The scheme as a browser would read it, after markdown-it's decoding and normalising, checked a second way. */
function isSafeLink(url: string): boolean {
  if (!SAFE_LINK.test(url)) return false;
  try {
    return SAFE_PROTOCOLS.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

function createRenderer(): MarkdownIt.MarkdownIt {
  // html: false shows raw HTML as text; markdown-it escapes every text and attribute it writes.
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  md.validateLink = isSafeLink;

  // Table alignment is the only style markdown-it writes; no style attribute may reach the page (custom CSS is the page's).
  md.core.ruler.push('drop_styles', (state) => {
    for (const token of state.tokens) {
      token.attrs = token.attrs?.filter(([name]) => name !== 'style') ?? null;
      for (const child of token.children ?? []) child.attrs = child.attrs?.filter(([name]) => name !== 'style') ?? null;
    }
  });

  md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
    const token = tokens[index];
    const href = token.attrGet('href');
    if (typeof href !== 'string' || !isSafeLink(href)) token.attrs = [];
    else {
      token.attrs = [['href', href]];
      token.attrSet('target', '_blank');
      token.attrSet('rel', LINK_REL);
    }
    return self.renderToken(tokens, index, options);
  };

  // Images are shown as links to them: a status page loads nothing from third parties, so visitors' addresses do
  // not leak to whoever hosts the picture and the page's img-src policy stays 'self'.
  md.renderer.rules.image = (tokens, index) => {
    const token = tokens[index];
    const src = String(token.attrGet('src') ?? '');
    const label = md.utils.escapeHtml(token.content || src);
    if (!isSafeLink(src)) return label;
    return `<a href="${md.utils.escapeHtml(src)}" target="_blank" rel="${LINK_REL}">${label}</a>`;
  };
  return md;
}

const renderer = createRenderer();

/**
 * Markdown written by operators (incident updates, maintenance descriptions) as HTML safe to insert into a page:
 * raw HTML is text, links are http(s) or mailto only and open in a new tab without a referrer, images become links,
 * no style or event-handler attribute exists. Rules in docs/decisions.md ("Markdown in incidents and maintenance").
 */
export function renderMarkdown(text: string): string {
  return renderer.render(text);
}

import { renderMarkdown as sut } from './markdown';

/** Elements markdown-it may write; anything else (script, img, iframe, svg, style…) fails the table. */
const ELEMENTS = new Set([
  'p',
  'br',
  'strong',
  'em',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
  'blockquote',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
/** Attributes it may write: no event handler, no style, no src. */
const ATTRIBUTES = new Set(['href', 'target', 'rel', 'title', 'start', 'class']);

/**
 * Every real tag of the output (markdown-it escapes `<`, `>` and `"` in text and attribute values, so a `<` in the
 * output opens a tag) has an allowed name and allowed attributes, and every link goes to http(s) or mailto.
 */
function assertInert(html: string): void {
  for (const [, name, rest] of html.matchAll(/<\/?([^\s>/]+)([^>]*)>/g)) {
    expect(ELEMENTS).toContain(name.toLowerCase());
    const attributes = [...rest.matchAll(/\s([^\s=]+)(?:="([^"]*)")?/g)];
    expect(attributes.map(([, attribute]) => attribute).join(' ')).toBe(
      rest
        .replace(/="[^"]*"/g, '')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .join(' '),
    );
    for (const [, attribute, value] of attributes) {
      expect(ATTRIBUTES).toContain(attribute.toLowerCase());
      if (attribute === 'href') expect(value).toMatch(/^(?:https?:\/\/|mailto:)/i);
      if (attribute === 'class') expect(value).toMatch(/^language-[\w-]+$/);
    }
  }
}

describe('renderMarkdown', () => {
  it.each([
    ['a script tag', '<script>alert(1)</script>'],
    ['a script tag split over lines', '<scr\nipt>alert(1)</script>'],
    ['an img with onerror', '<img src=x onerror=alert(1)>'],
    ['an svg with onload', '<svg onload=alert(1)>'],
    ['an iframe', '<iframe src="javascript:alert(1)"></iframe>'],
    ['a style element', '<style>body{display:none}</style>'],
    ['a style attribute', '<p style="position:fixed">x</p>'],
    ['an HTML block with a handler', '<div onclick="alert(1)">\n\ntext\n\n</div>'],
    ['an inline HTML anchor', 'a <a href="javascript:alert(1)">link</a> b'],
    ['a javascript: link', '[x](javascript:alert(1))'],
    ['an uppercase JAVASCRIPT: link', '[x](JAVASCRIPT:alert(1))'],
    ['a mixed-case javascript: link', '[x](JaVaScRiPt:alert(1))'],
    ['a javascript: link with a tab inside', '[x](java\tscript:alert(1))'],
    ['a javascript: link with an encoded tab', '[x](java&#x09;script:alert(1))'],
    ['a javascript: link with a newline entity', '[x](java&#10;script:alert(1))'],
    ['a javascript: link written with decimal entities', '[x](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1))'],
    ['a javascript: link written with hex entities', '[x](&#x6A;avascript&#x3A;alert(1))'],
    ['a javascript: link with a named colon entity', '[x](javascript&colon;alert(1))'],
    ['a javascript: link with leading spaces inside angle brackets', '[x](<  javascript:alert(1)>)'],
    ['a percent-encoded javascript: link', '[x](%6Aavascript:alert(1))'],
    ['a javascript: autolink', '<javascript:alert(1)>'],
    ['a javascript: reference link', '[x][r]\n\n[r]: javascript:alert(1)'],
    ['a vbscript: link', '[x](vbscript:msgbox(1))'],
    ['a data: link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['a data: image', '![x](data:image/png;base64,iVBORw0KGgo=)'],
    ['a data: svg image', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
    ['a file: link', '[x](file:///etc/passwd)'],
    ['a protocol-relative link', '[x](//evil.example/)'],
    ['an image with a javascript: source', '![x](javascript:alert(1))'],
    ['an image whose alt closes the attribute', '![x" onerror="alert(1)](https://example.com/a.png)'],
    ['a link title breaking out of its attribute', '[x](https://example.com "a\\" onmouseover=\\"alert(1)")'],
    ['a link whose URL carries a quote', '[x](https://example.com/"onmouseover="alert(1))'],
    ['an entity-encoded script tag', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['a double-encoded script tag', '&amp;lt;script&amp;gt;alert(1)'],
    ['an aligned table (a style attribute)', '| a | b |\n|:-:|--:|\n| 1 | 2 |'],
    ['a code block holding HTML', '```html\n<script>alert(1)</script>\n```'],
    ['inline code holding HTML', '`<img src=x onerror=alert(1)>`'],
  ])('leaves nothing executable from %s', (_, markdown) => {
    assertInert(sut(markdown));
  });

  it.each([
    ['<img src=x onerror=alert(1)>'],
    ['<p onclick="alert(1)">x</p>'],
    ['<a href="javascript:alert(1)">x</a>'],
    ['<td style="color:red">x</td>'],
    ['<script>alert(1)</script>'],
  ])('has a table check that refuses %s', (html) => {
    expect(() => assertInert(html)).toThrow();
  });

  it('shows raw HTML as text', () => {
    expect(sut('<b>bold</b> <script>alert(1)</script>')).toBe('<p>&lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
  });

  it('keeps a refused link as its text', () => {
    expect(sut('[click](javascript:alert(1))')).toBe('<p>[click](javascript:alert(1))</p>\n');
  });

  it('renders the Markdown operators write', () => {
    expect(sut('**Fixed**: the _database_ is back.\n\n- one\n- two')).toBe(
      '<p><strong>Fixed</strong>: the <em>database</em> is back.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
  });

  it('keeps line breaks as written', () => {
    expect(sut('first\nsecond')).toBe('<p>first<br>\nsecond</p>\n');
  });

  it.each([
    ['an http link', '[status](http://example.com/a?b=1&c=2)', 'http://example.com/a?b=1&amp;c=2'],
    ['an https link', '[status](https://example.com)', 'https://example.com'],
    ['an uppercase scheme', '[status](HTTPS://example.com)', 'HTTPS://example.com'],
    ['a mailto link', '[mail](mailto:ops@example.com)', 'mailto:ops@example.com'],
    ['a bare URL', 'see https://example.com/x', 'https://example.com/x'],
    ['a bare email address', 'write to ops@example.com', 'mailto:ops@example.com'],
    ['an autolink', '<https://example.com>', 'https://example.com'],
  ])('opens %s in a new tab without referrer or ranking', (_, markdown, href) => {
    expect(sut(markdown)).toContain(`<a href="${href}" target="_blank" rel="nofollow noopener noreferrer">`);
  });

  it('turns an https image into a link to it, loading nothing', () => {
    expect(sut('![the graph](https://example.com/g.png)')).toBe(
      '<p><a href="https://example.com/g.png" target="_blank" rel="nofollow noopener noreferrer">the graph</a></p>\n',
    );
  });

  it('drops table alignment styles but keeps the table', () => {
    const html = sut('| a | b |\n|:-:|--:|\n| 1 | 2 |');
    expect(html).toContain('<table>');
    expect(html).toContain('<th>a</th>');
    expect(html).not.toContain('style');
  });
});

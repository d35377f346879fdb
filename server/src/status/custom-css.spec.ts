import { scopeCustomCss } from './custom-css';

const allowCdn = (origin: string) => origin === 'https://cdn.example.com';
const scope = (css: string) => scopeCustomCss(css, allowCdn);

describe('scopeCustomCss', () => {
  it.each([
    ['h1 { color: red }', '.vigil-status-page h1 {\n  color: red\n}'],
    ['body { background: #fff }', '.vigil-status-page {\n  background: #fff\n}'],
    [':root { --accent: red }', '.vigil-status-page {\n  --accent: red\n}'],
    ['html > body p, .vigil-status-page > .card { margin: 0 }', '.vigil-status-page p, .vigil-status-page > .card {\n  margin: 0\n}'],
    ['.vigil-status-page:hover { color: red }', '.vigil-status-page:hover {\n  color: red\n}'],
    ['p ~ span, h1 + p { color: red }', '.vigil-status-page p~span, .vigil-status-page h1+p {\n  color: red\n}'],
    ['[data-x="a,b"] > p { color: red }', '.vigil-status-page [data-x="a,b"]>p {\n  color: red\n}'],
    [
      '@media (max-width: 600px) { body h1 { font-size: 20px } }',
      '@media (max-width: 600px) {\n.vigil-status-page h1 {\n  font-size: 20px\n}\n}',
    ],
    [
      '.logo { background: url(/favicon.svg), url("data:image/png;base64,AAAA") }',
      '.vigil-status-page .logo {\n  background: url(/favicon.svg), url("data:image/png;base64,AAAA")\n}',
    ],
    [
      '.x { background: url(https://cdn.example.com/bg.png) }',
      '.vigil-status-page .x {\n  background: url(https://cdn.example.com/bg.png)\n}',
    ],
  ])('scopes %j', (css, expected) => {
    expect(scope(css)).toEqual({ css: expected, problems: [] });
  });

  it.each([
    ['.vigil-status-page ~ * { display: none }', 'status.customCssOutsidePage'],
    ['body + div { display: none }', 'status.customCssOutsidePage'],
    [':root ~ * { color: red }', 'status.customCssOutsidePage'],
    ['html > .vigil-status-page ~ nav { color: red }', 'status.customCssOutsidePage'],
    ['& ~ * { color: red }', 'status.customCssOutsidePage'],
    ['@import "https://evil.example/x.css";', 'status.customCssImport'],
    ['@\\69mport "x.css";', 'status.customCssImport'],
    ['h1 { background: url(http://evil.example/x.png) }', 'status.customCssExternal'],
    ['h1 { background: url(//evil.example/x.png) }', 'status.customCssExternal'],
    ['h1 { background: url(\\\\\\\\evil.example/x.png) }', 'status.customCssExternal'],
    ['h1 { background: url("\\2f\\2f evil.example/x.png") }', 'status.customCssExternal'],
    ['h1 { background: \\75 rl(http://evil.example/x.png) }', 'status.customCssExternal'],
    ['h1 { background: u\\72l(http://evil.example/x.png) }', 'status.customCssExternal'],
    ['h1 { background: image-set("http://evil.example/x.png" 1x) }', 'status.customCssExternal'],
    ['h1 { background: image-set(var(--x) 1x) }', 'status.customCssExternal'],
    ['h1 { background: url("/*"), url("http://evil.example/x.png") /* */ }', 'status.customCssExternal'],
    ['h1 { background: url(/*), url(http://evil.example/x.png) /* */ }', 'status.customCssExternal'],
    ['h1 { --bg: url(https://evil.example/x.png) }', 'status.customCssExternal'],
    ['@font-face { font-family: x; src: url(https://evil.example/f.woff2) }', 'status.customCssExternal'],
    ['@namespace svg url(http://www.w3.org/2000/svg);', 'status.customCssAtRule'],
    ['@property --x { syntax: "*"; inherits: false }', 'status.customCssAtRule'],
    ['.a { color: red; .b { color: blue } }', 'status.customCssInvalid'],
    ['.a { color: red } }', 'status.customCssInvalid'],
  ])('refuses %j', (css, problem) => {
    expect(scope(css).problems).toContain(problem);
  });

  it('serves only the parts that pass, every selector under the page', () => {
    const sut = scope('.vigil-status-page ~ *, h2 { color: red } @import "x.css"; h1 { background: url(http://evil/x); color: blue }');
    expect(sut.css).toBe('.vigil-status-page h2 {\n  color: red\n}\n.vigil-status-page h1 {\n  color: blue\n}');
  });

  it('keeps a font from this server or an allowed origin', () => {
    const css = '@font-face { font-family: x; src: url(/f.woff2), url(https://cdn.example.com/f.woff2) }';
    expect(scope(css)).toEqual({ css, problems: [] });
  });

  it('answers instead of throwing on deeply nested text', () => {
    expect(() => scope('a{'.repeat(20_000))).not.toThrow();
  });
});

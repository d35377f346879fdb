import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CUSTOM_CSS_ATTRIBUTE, prepareCustomCss, sanitizeCustomCss, scopeCustomCss, scopeSelector, useCustomCss } from './customCss';

const styleElements = () => [...document.querySelectorAll(`style[${CUSTOM_CSS_ATTRIBUTE}]`)];

describe('custom CSS of the status page', () => {
  it.each([
    ['h1 { color: red }', 'h1 { color: red }'],
    ['</style><script>alert(1)</script>', '>script>alert(1)/script>'],
    ['a { x: 1 }</STYLE >', 'a { x: 1 } >'],
    ['<<//style', '//style'],
  ])('sanitises %j to %j', (css, expected) => {
    expect(sanitizeCustomCss(css)).toBe(expected);
  });

  it('adds a style element whose text holds neither </style nor <, and no script, for a breakout payload', () => {
    const payload = '.vigil-status-page h1 { color: rgb(255, 0, 0) }</style><script>alert(1)</script><style>';
    const scriptsBefore = document.querySelectorAll('script').length;
    const { unmount } = renderHook(() => useCustomCss(payload));

    const [style] = styleElements();
    expect(style.parentElement).toBe(document.head);
    expect(style.textContent).not.toMatch(/<\/style/i);
    expect(style.textContent).not.toContain('<');
    expect(style.children).toHaveLength(0);
    expect(style.textContent).toContain('.vigil-status-page h1');
    expect(document.querySelectorAll('script')).toHaveLength(scriptsBefore);

    unmount();
    expect(styleElements()).toHaveLength(0);
  });

  it('turns escapes that serialise back into < into nothing', () => {
    expect(prepareCustomCss('p::after { content: "\\3c/style>" }')).not.toContain('<');
  });

  it('adds nothing for empty CSS', () => {
    renderHook(() => useCustomCss('   '));
    expect(styleElements()).toHaveLength(0);
  });

  it.each([
    ['h1', '.vigil-status-page h1'],
    ['.vigil-status-page h1', '.vigil-status-page h1'],
    ['.vigil-status-page', '.vigil-status-page'],
    ['.vigil-status-page-other', '.vigil-status-page .vigil-status-page-other'],
    ['body', '.vigil-status-page'],
    ['body .card', '.vigil-status-page .card'],
    ['html body h2', '.vigil-status-page h2'],
    [':root', '.vigil-status-page'],
    ['bodyish', '.vigil-status-page bodyish'],
    ['.vigil-status-page ~ *', '.vigil-status-page .vigil-status-page ~ *'],
    ['.vigil-status-page:hover + nav', '.vigil-status-page .vigil-status-page:hover + nav'],
    ['body ~ div', '.vigil-status-page body ~ div'],
  ])('scopes the selector %j as %j', (selector, expected) => {
    expect(scopeSelector(selector)).toBe(expected);
  });

  it('scopes every selector of a list, inside media queries too, and drops what cannot be scoped', () => {
    const scoped = scopeCustomCss(
      '@import url("https://evil.example/x.css"); h1, :is(h2, h3) { color: red } @media (min-width: 10px) { p { margin: 0 } } @page { margin: 0 }',
    );
    expect(scoped).toContain('.vigil-status-page h1, .vigil-status-page :is(h2, h3)');
    expect(scoped).toMatch(/@media \(min-width: 10px\) {\s*\.vigil-status-page p/);
    expect(scoped).not.toContain('@import');
    expect(scoped).not.toContain('@page');
  });

  it('cannot reach outside the page by closing a block early', () => {
    const scoped = scopeCustomCss('a { color: red } } body, nav { display: none }');
    expect(scoped).not.toMatch(/(^|\n|})\s*nav\s*[{,]/);
    expect(scoped).not.toMatch(/(^|\n)\s*body\s*[{,]/);
  });
});

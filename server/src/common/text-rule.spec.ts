import { findBadText, isCleanText } from './text-rule';

describe('text rule', () => {
  it.each([
    ['plain text', 'hello', true],
    ['an empty string', '', true],
    ['Chinese and an emoji (a valid surrogate pair)', '状态 😀', true],
    ['a NUL byte', 'ad\u0000min', false],
    ['a lone high surrogate', 'x\ud800', false],
    ['a lone low surrogate', '\udc00y', false],
    ['reversed surrogates', '\udc00\ud800', false],
  ])('judges %s', (_, text, clean) => {
    expect(isCleanText(text)).toBe(clean);
  });

  it('finds the path of the first bad value or key at any depth', () => {
    expect(findBadText({ name: 'ok', config: { headers: { A: 'fine', B: 'b\u0000' } } })).toEqual(['config', 'headers', 'B']);
    expect(findBadText({ list: ['a', { '\ud800': 1 }] })).toEqual(['list', 1, '\ud800']);
    expect(findBadText('\u0000')).toEqual([]);
  });

  it('accepts clean inputs and non-text values', () => {
    expect(findBadText({ a: 1, b: null, c: [true, 'x'], d: { e: '😀' } })).toBeNull();
    expect(findBadText(undefined)).toBeNull();
  });
});

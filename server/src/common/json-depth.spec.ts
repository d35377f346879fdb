import { jsonDepthExceeds } from './json-depth';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonDepthExceeds', () => {
  it.each([
    ['a flat object', '{"a":1}', 1, false],
    ['an object at the limit', '{"a":{"b":[1]}}', 3, false],
    ['an object one past the limit', '{"a":{"b":[[1]]}}', 3, true],
    ['brackets inside strings', '{"a":"[[[[{{{{"}', 1, false],
    ['an escaped quote that does not end the string', '{"a":"\\"[[[["}', 1, false],
    ['an escaped backslash before the closing quote', '{"a":"\\\\","b":[[1]]}', 2, true],
    ['brackets after multi-byte text', '{"状态":"😀","b":[[1]]}', 2, true],
    ['siblings that never nest deeply', '[[1],[2],[3],[4]]', 2, false],
  ])('judges %s', (_, text, max, exceeds) => {
    expect(jsonDepthExceeds(bytes(text), max)).toBe(exceeds);
  });

  it('refuses the attack body of 450,000 nested arrays in a few milliseconds', () => {
    const attack = bytes('['.repeat(450_000) + '1' + ']'.repeat(450_000));
    const started = performance.now();
    expect(jsonDepthExceeds(attack, 32)).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('scans a 1 MB body of harmless text in linear time, far below the 20 ms budget', () => {
    const body = bytes(JSON.stringify({ css: '.a { color: red } '.repeat(60_000) }));
    const started = performance.now();
    expect(jsonDepthExceeds(body, 32)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

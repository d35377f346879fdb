import { jsonShapeProblem, JsonShapeLimits } from './json-shape';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const limits = (overrides: Partial<JsonShapeLimits> = {}): JsonShapeLimits => ({ depth: 32, width: 1_000, values: 20_000, ...overrides });

describe('jsonShapeProblem', () => {
  it.each([
    ['a flat object', '{"a":1}', limits({ depth: 1 }), null],
    ['an object at the depth limit', '{"a":{"b":[1]}}', limits({ depth: 3 }), null],
    ['an object one past the depth limit', '{"a":{"b":[[1]]}}', limits({ depth: 3 }), 'depth'],
    ['brackets and commas inside strings', '{"a":"[[[[{{{{,,,,,"}', limits({ depth: 1, width: 2 }), null],
    ['an escaped quote that does not end the string', '{"a":"\\"[[[["}', limits({ depth: 1 }), null],
    ['an escaped backslash before the closing quote', '{"a":"\\\\","b":[[1]]}', limits({ depth: 2 }), 'depth'],
    ['brackets after multi-byte text', '{"状态":"😀","b":[[1]]}', limits({ depth: 2 }), 'depth'],
    ['siblings that never nest deeply', '[[1],[2],[3],[4]]', limits({ depth: 2 }), null],
    ['a list at the width limit', '[1,2,3]', limits({ width: 3 }), null],
    ['a list one past the width limit', '[1,2,3,4]', limits({ width: 3 }), 'width'],
    ['an object one past the width limit', '{"a":1,"b":2,"c":3,"d":4}', limits({ width: 3 }), 'width'],
    ['narrow lists adding up past the value limit', '[[1,2],[3,4],[5,6]]', limits({ width: 3, values: 8 }), 'values'],
    ['width counted per list, not per depth', '[[1,2,3],[4,5,6]]', limits({ width: 3 }), null],
  ])('judges %s', (_, text, shape, problem) => {
    expect(jsonShapeProblem(bytes(text), shape)).toBe(problem);
  });

  it('refuses the attack body of 450,000 nested arrays in a few milliseconds', () => {
    const attack = bytes('['.repeat(450_000) + '1' + ']'.repeat(450_000));
    const started = performance.now();
    expect(jsonShapeProblem(attack, limits())).toBe('depth');
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('refuses a list of 140,000 ids as too wide', () => {
    expect(jsonShapeProblem(bytes(JSON.stringify({ monitors: Array.from({ length: 140_000 }, (_, i) => i) })), limits())).toBe('width');
  });

  it('scans a 1 MB body of harmless text in linear time, far below the 20 ms budget', () => {
    const body = bytes(JSON.stringify({ css: '.a { color: red } '.repeat(60_000) }));
    const started = performance.now();
    expect(jsonShapeProblem(body, limits())).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
  });
});

import { describe, expect, it } from 'vitest';
import { validateAgentName } from './form';

describe('agent name validation', () => {
  it.each([
    ['', 'agents.nameRequired'],
    ['   ', 'agents.nameRequired'],
    ['web-1', null],
    ['  web-1  ', null],
    ['a'.repeat(100), null],
    ['a'.repeat(101), 'agents.nameTooLong'],
    [` ${'a'.repeat(100)} `, null],
    ['😀'.repeat(100), null],
  ])('answers %j with %s', (name, code) => {
    expect(validateAgentName(name)).toBe(code);
  });
});

import { describe, expect, it } from 'vitest';
import { defaultTypeFieldValues, toTypeFields, validateTypeFields } from './fields';

describe('group monitor fields', () => {
  const values = (groupRule: 'any' | 'all' | 'atLeast', groupMin: string) => ({
    ...defaultTypeFieldValues(),
    url: '',
    groupRule,
    groupMin,
  });

  it('sends the rule alone, and the count with atLeast', () => {
    expect(toTypeFields('group', values('all', '2'), '')).toEqual({ type: 'group', groupRule: 'all' });
    expect(toTypeFields('group', values('atLeast', ' 3 '), '')).toEqual({ type: 'group', groupRule: 'atLeast', groupMin: 3 });
  });

  it.each(['', '0', '1001', 'two'])('refuses %j members down with atLeast', (groupMin) => {
    expect(validateTypeFields('group', values('atLeast', groupMin))).toEqual({ groupMin: 'groupMin' });
  });

  it('needs no count for any and all, and no target at all', () => {
    expect(validateTypeFields('group', values('any', ''))).toEqual({});
  });
});

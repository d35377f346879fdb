import { RECOVERY_CODE_COUNT } from '@vigil/proto';
import { generateRecoveryCodes, hashRecoveryCode, isTotpCode, normalizeRecoveryCode } from './recovery-codes';

describe('recovery codes', () => {
  it('makes ten distinct codes of 80 bits, written in groups of four', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
  });

  it('hashes a code the same however it is typed back', () => {
    const [code] = generateRecoveryCodes(1);
    const hash = hashRecoveryCode(code);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode(` ${code.toUpperCase().replace(/-/g, ' ')} `)).toBe(hash);
    expect(normalizeRecoveryCode('ABCD-efgh ijkl-MNOP')).toBe('abcdefghijklmnop');
    expect(hashRecoveryCode(generateRecoveryCodes(1)[0])).not.toBe(hash);
  });

  it.each([
    ['123456', true],
    ['123 456', true],
    ['12345', false],
    ['1234567', false],
    ['abcd-efgh-ijkl-mnop', false],
  ])('tells %p apart as an authenticator code: %p', (code, expected) => {
    expect(isTotpCode(code)).toBe(expected);
  });
});

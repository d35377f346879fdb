import { base32Decode, base32Encode, generateTotpSecret, hotp, matchTotpStep, otpauthUrl, totpStep } from './totp';

/** RFC 6238 appendix B: the seeds for SHA-1, SHA-256 and SHA-512, 8 digits, 30-second steps. */
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ])('at %i s gives the RFC test vectors', (seconds, sha1, sha256, sha512) => {
    const step = totpStep(seconds * 1000);
    expect(hotp(SEEDS.sha1, step, 8, 'sha1')).toBe(sha1);
    expect(hotp(SEEDS.sha256, step, 8, 'sha256')).toBe(sha256);
    expect(hotp(SEEDS.sha512, step, 8, 'sha512')).toBe(sha512);
  });

  it('gives the RFC 4226 HOTP values with six digits', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(SEEDS.sha1, counter))).toEqual(expected);
  });

  it('round-trips base32 as authenticator apps write it', () => {
    expect(base32Encode(Buffer.from('12345678901234567890'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq').toString()).toBe('12345678901234567890');
    for (const length of [1, 2, 3, 4, 5, 10, 20]) {
      const bytes = Buffer.from(Array.from({ length }, (_, index) => (index * 97 + 13) & 0xff));
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
    expect(() => base32Decode('not base32!')).toThrow();
  });

  it('makes 160-bit secrets', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(generateTotpSecret()).not.toBe(secret);
  });

  describe('matching a code', () => {
    const secret = base32Encode(SEEDS.sha1);
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    const codeAt = (at: number) => hotp(SEEDS.sha1, at);

    it.each([
      ['the previous step', -1, -1],
      ['the current step', 0, 0],
      ['the next step', 1, 1],
    ])('accepts a code of %s', (_, offset, matched) => {
      expect(matchTotpStep(secret, codeAt(step + offset), now)).toBe(step + matched);
    });

    it.each([
      ['two steps ago', -2],
      ['two steps ahead', 2],
    ])('refuses a code of %s', (_, offset) => {
      expect(matchTotpStep(secret, codeAt(step + offset), now)).toBeNull();
    });

    it.each(['', '12345', '1234567', 'abcdef', '000000'])('refuses %p', (code) => {
      // '000000' is not any of the three steps' codes for this seed at this time.
      expect(matchTotpStep(secret, code, now)).toBeNull();
    });

    it('ignores spaces typed inside the code', () => {
      const code = codeAt(step);
      expect(matchTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(step);
    });
  });

  it('writes the otpauth URL authenticator apps scan', () => {
    const url = new URL(otpauthUrl('Vigil', 'alice smith', 'JBSWY3DPEHPK3PXP'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Vigil:alice smith');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Vigil',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});

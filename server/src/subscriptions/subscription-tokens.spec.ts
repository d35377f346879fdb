import { randomBytes } from 'node:crypto';
import { hashToken, randomToken, TOKEN_PATTERN, unsubscribeToken } from './subscription-tokens';

describe('subscription tokens', () => {
  it('makes random tokens of 32 bytes in base64url, a new one every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, randomToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) expect(token).toMatch(TOKEN_PATTERN);
  });

  it('stores the SHA-256 of a token, never the token', () => {
    const token = randomToken();
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(hashToken(randomToken()));
  });

  it('derives the same unsubscribe token for a subscriber under the same key, and another for another subscriber or key', () => {
    const key = randomBytes(32);
    expect(unsubscribeToken(key, 7)).toBe(unsubscribeToken(Buffer.from(key), 7));
    expect(unsubscribeToken(key, 7)).toMatch(TOKEN_PATTERN);
    expect(unsubscribeToken(key, 8)).not.toBe(unsubscribeToken(key, 7));
    expect(unsubscribeToken(randomBytes(32), 7)).not.toBe(unsubscribeToken(key, 7));
  });
});

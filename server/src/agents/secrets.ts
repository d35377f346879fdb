import { createHash, randomBytes } from 'node:crypto';

/** Registration tokens and agent credentials: random, prefixed so a leaked one is recognisable in a scan. */
export function newRegistrationToken(): string {
  return `vgr_${randomBytes(24).toString('base64url')}`;
}

export function newCredential(): string {
  return `vga_${randomBytes(32).toString('base64url')}`;
}

/** What the database keeps of a token or credential. Both are high-entropy, so SHA-256 is enough (no salt, no KDF). */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

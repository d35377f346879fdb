import { createHash, randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from '@vigil/proto';
import { base32Encode } from './totp';

/**
 * Ten one-time codes of 80 random bits each, written `abcd-efgh-ijkl-mnop` (base32, lower case). With that much
 * entropy a SHA-256 is enough to store them (as registration tokens and agent credentials are): no guessing from the
 * hash, and a sign-in can use one in a single conditional UPDATE, which argon2id's salted hashes would not allow.
 */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => base32Encode(randomBytes(10)).toLowerCase().match(/.{4}/g)!.join('-'));
}

/** The code as stored: case, spaces and dashes do not matter when it is typed back. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

/** A code the authenticator app shows (six digits), as opposed to a recovery code. */
export function isTotpCode(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, ''));
}

import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * An authenticator app, written apart from the server's own code (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps),
 * so the tests check the server against the standard rather than against itself.
 */
export function totpStepNow(): number {
  return Math.floor(Date.now() / 30_000);
}

export function totpCode(secret: string, step: number = totpStepNow()): string {
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) bits += BASE32.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** The secret in an otpauth URL, as an app scanning the QR code reads it. */
export function otpauthSecret(url: string): string {
  return new URL(url).searchParams.get('secret') ?? '';
}

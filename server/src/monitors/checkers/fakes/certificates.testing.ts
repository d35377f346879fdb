import { generateKeyPairSync, KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * X.509 certificates for loopback fakes, made in-process with Node's crypto (P-256 keys, fast) and a small DER
 * writer: a test authority that specs trust explicitly, and leaf or self-signed certificates with chosen names and
 * validity (expiring in 5 days, expired, not yet valid).
 */
export interface TestCertificate {
  /** PEM. */
  cert: string;
  /** PEM (PKCS #8). */
  key: string;
  /** As Node reports it (`AB:CD:…`), to compare with what a check recorded. */
  fingerprint: string;
  validFrom: Date;
  validTo: Date;
}

export interface CertificateOptions {
  commonName?: string;
  organization?: string;
  /** DNS names and IP addresses the certificate is for; default `localhost` and `127.0.0.1`. */
  altNames?: string[];
  /** Default: a day ago. */
  validFrom?: Date;
  /** Default: in 90 days. */
  validTo?: Date;
}

export interface TestAuthority extends TestCertificate {
  name: string;
  issue(options?: CertificateOptions): TestCertificate;
}

const DAY_MS = 86_400_000;

/** A date `days` from now (negative: in the past). */
export function daysFromNow(days: number): Date {
  return new Date(Date.now() + days * DAY_MS);
}

export function createTestAuthority(name = 'Vigil Test CA'): TestAuthority {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const subject = distinguishedName(name, 'Vigil Tests');
  const extensions = [basicConstraints(true), keyUsage(0x06, 1)];
  const authority = certificate(subject, subject, publicKey, privateKey, daysFromNow(-1), daysFromNow(3650), extensions);
  return {
    ...authority,
    name,
    issue: (options = {}) => leaf(options, subject, privateKey),
  };
}

/** A certificate signed by its own key: no client trusts it unless told to ignore TLS errors. */
export function createSelfSignedCertificate(options: CertificateOptions = {}): TestCertificate {
  return leaf(options, null, null);
}

function leaf(options: CertificateOptions, issuer: Buffer | null, issuerKey: KeyObject | null): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const subject = distinguishedName(options.commonName ?? 'localhost', options.organization ?? 'Vigil Tests');
  const extensions = [basicConstraints(false), keyUsage(0x80, 7), subjectAltName(options.altNames ?? ['localhost', '127.0.0.1'])];
  return certificate(
    subject,
    issuer ?? subject,
    publicKey,
    issuerKey ?? privateKey,
    options.validFrom ?? daysFromNow(-1),
    options.validTo ?? daysFromNow(90),
    extensions,
    privateKey,
  );
}

function certificate(
  subject: Buffer,
  issuer: Buffer,
  publicKey: KeyObject,
  signingKey: KeyObject,
  validFrom: Date,
  validTo: Date,
  extensions: Buffer[],
  ownKey: KeyObject = signingKey,
): TestCertificate {
  const algorithm = sequence(oid('1.2.840.10045.4.3.2')); // ecdsa-with-SHA256
  const serial = randomBytes(12);
  // Positive and minimal as DER wants: the first byte neither zero nor with its high bit set.
  serial[0] = (serial[0] & 0x3f) | 0x40;
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))), // v3
    integer(serial),
    algorithm,
    issuer,
    sequence(time(validFrom), time(validTo)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, signingKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)
    ?.join('\n')}\n-----END CERTIFICATE-----\n`;
  const key = ownKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  return { cert, key, fingerprint: new X509Certificate(cert).fingerprint256, validFrom, validTo };
}

// --- DER, only what the certificates above need ---

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const integer = (value: Buffer) => tlv(0x02, value[0] & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
const bitString = (value: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), value]));
const octetString = (value: Buffer) => tlv(0x04, value);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const encoded = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) encoded.unshift((value & 0x7f) | 0x80);
    bytes.push(...encoded);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime after, as RFC 5280 requires. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

function distinguishedName(commonName: string, organization: string): Buffer {
  return sequence(set(sequence(oid('2.5.4.10'), utf8(organization))), set(sequence(oid('2.5.4.3'), utf8(commonName))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), octetString(value));
}

function basicConstraints(ca: boolean): Buffer {
  return extension('2.5.29.19', true, ca ? sequence(tlv(0x01, Buffer.from([0xff]))) : sequence());
}

function keyUsage(bits: number, unusedBits: number): Buffer {
  return extension('2.5.29.15', true, tlv(0x03, Buffer.from([unusedBits, bits])));
}

function subjectAltName(names: string[]): Buffer {
  const entries = names.map((name) => {
    const family = isIP(name);
    if (family === 4) return tlv(0x87, Buffer.from(name.split('.').map(Number)));
    if (family === 6) return tlv(0x87, ipv6Bytes(name));
    return tlv(0x82, Buffer.from(name, 'ascii'));
  });
  return extension('2.5.29.17', false, sequence(...entries));
}

/** The 16 bytes of an IPv6 address (`::` expanded). */
export function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const start = groups(head);
  const end = address.includes('::') ? groups(tail) : [];
  const all = [...start, ...new Array(8 - start.length - end.length).fill(0), ...end];
  return Buffer.from(all.flatMap((group) => [group >> 8, group & 0xff]));
}

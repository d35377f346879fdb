import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A browser's side of Web Push, for tests: the subscription keys a browser would make (RFC 8291), a loopback push
 * service that records what it is sent, and the two checks a real push service and browser make: the VAPID token
 * (RFC 8292) and the aes128gcm decryption of the payload.
 */
export interface BrowserKeys {
  /** base64url, as `PushSubscription.toJSON().keys` gives them. */
  p256dh: string;
  auth: string;
  /** The browser's ECDH private key, which never leaves it. */
  privateKey: Buffer;
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
    privateKey: ecdh.getPrivateKey(),
  };
}

/**
 * Decrypts an `aes128gcm` Web Push body (RFC 8291 with RFC 8188's one-record framing) as the browser would: the
 * header carries the salt, record size and the server's one-time public key; the key and nonce come from ECDH with
 * it and the auth secret.
 */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record: not what web-push sends');

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(keys.privateKey);
  const shared = ecdh.computeSecret(serverPublic);
  const browserPublic = Buffer.from(keys.p256dh, 'base64url');
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserPublic, serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, Buffer.from(keys.auth, 'base64url'), keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/**
 * Checks `Authorization: vapid t=<jwt>, k=<key>` as a push service does: the key is the one expected, and the ES256
 * signature over the JWT verifies with it. Answers the claims; throws on any mismatch.
 */
export function verifyVapid(header: string | undefined, expectedKey: string): VapidClaims {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${header}`);
  const [, token, key] = match;
  if (key !== expectedKey) throw new Error('signed with another key');
  const [head, claims, signature] = token.split('.');
  const header64 = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg: string };
  if (header64.alg !== 'ES256') throw new Error(`alg ${header64.alg}`);
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('bad VAPID signature');
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as VapidClaims;
}

export interface PushRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** A loopback push service: `POST /push/<name>` is one browser's endpoint; answers 201 unless told otherwise. */
export interface FakePushService {
  url: string;
  received: PushRequest[];
  /** The endpoint of the browser named `name`. */
  endpoint(name: string): string;
  /** Requests for one browser. */
  of(name: string): PushRequest[];
  /** Every request for this browser is answered with `status` (null: 201 again). */
  answer(name: string, status: number | null): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const received: PushRequest[] = [];
  const answers = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      res.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received,
    endpoint: (name) => `${url}/push/${name}`,
    of: (name) => received.filter((request) => request.path === `/push/${name}`),
    answer(name, status) {
      if (status === null) answers.delete(`/push/${name}`);
      else answers.set(`/push/${name}`, status);
    },
    clear() {
      received.length = 0;
      answers.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import * as radius from 'radius';
import { ProbeFailure, timeoutError } from '../../checkers/failure';

/** RFC 2865, 3: a RADIUS packet is 20 to 4096 bytes. */
const HEADER_LENGTH = 20;
const PACKET_MAX = 4096;
const MESSAGE_AUTHENTICATOR = 80;
/** A Reply-Message is shown at most this long. */
const REPLY_MAX = 200;

export interface AccessRequest {
  username: string;
  password: string;
  secret: string;
  calledStationId?: string;
  callingStationId?: string;
}

export interface AccessAnswer {
  code: 'Access-Accept' | 'Access-Reject' | 'Access-Challenge';
  /** The answer's Reply-Message(s), one line, shortened; '' when none. */
  replyMessage: string;
}

/**
 * Sends one Access-Request (PAP, with a Message-Authenticator) to `address`:`port` and waits for its answer within
 * `timeoutMs`. The socket is connected, so only that peer's datagrams arrive and an ICMP "port unreachable" fails at
 * once. An answer to another identifier is ignored; one whose Response Authenticator (or Message-Authenticator)
 * does not verify under the shared secret fails, named.
 */
export function exchangeAccessRequest(address: string, port: number, request: AccessRequest, timeoutMs: number): Promise<AccessAnswer> {
  const identifier = randomInt(256);
  const packet = radius.encode({
    code: 'Access-Request',
    secret: request.secret,
    identifier,
    add_message_authenticator: true,
    attributes: [
      ['User-Name', request.username],
      ['User-Password', request.password],
      // RFC 2865, 4.1: a request names its NAS.
      ['NAS-Identifier', 'vigil'],
      ...(request.calledStationId ? [['Called-Station-Id', request.calledStationId]] : []),
      ...(request.callingStationId ? [['Calling-Station-Id', request.callingStationId]] : []),
    ],
  });
  return new Promise<AccessAnswer>((resolve, reject) => {
    const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
    let done = false;
    const finish = (error: unknown, answer?: AccessAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      if (answer) resolve(answer);
      else reject(error);
    };
    const timer = setTimeout(() => finish(timeoutError()), timeoutMs);
    socket.on('error', (error) => finish(error));
    socket.on('message', (response: Buffer) => {
      if (response.length < HEADER_LENGTH || response[1] !== identifier) return;
      try {
        finish(null, readAnswer(response, packet, request.secret));
      } catch (error) {
        finish(error);
      }
    });
    socket.connect(port, address, () => socket.send(packet, (error) => error && finish(error)));
  });
}

/** A verified answer to `request`, or a named failure. */
function readAnswer(datagram: Buffer, request: Buffer, secret: string): AccessAnswer {
  const length = datagram.readUInt16BE(2);
  if (length < HEADER_LENGTH || length > PACKET_MAX || length > datagram.length) {
    throw new ProbeFailure(`Malformed RADIUS answer: length ${length} in a ${datagram.length}-byte datagram`);
  }
  // Octets past the length are padding (RFC 2865, 3).
  const response = Buffer.from(datagram.subarray(0, length));
  if (!authenticatorHolds(response, request, secret)) {
    throw new ProbeFailure("The RADIUS answer does not verify: the shared secret differs from the server's");
  }
  let decoded: { code: string; attributes: Record<string, unknown> };
  try {
    decoded = radius.decode({ packet: response, secret });
  } catch (error) {
    throw new ProbeFailure(`Malformed RADIUS answer: ${(error as Error).message.slice(0, REPLY_MAX)}`);
  }
  if (decoded.code !== 'Access-Accept' && decoded.code !== 'Access-Reject' && decoded.code !== 'Access-Challenge') {
    throw new ProbeFailure(`Unexpected RADIUS answer ${decoded.code || `code ${response[0]}`} to an Access-Request`);
  }
  return { code: decoded.code, replyMessage: replyMessage(decoded.attributes['Reply-Message']) };
}

/**
 * RFC 2865, 3: Response Authenticator = MD5(Code, Identifier, Length, Request Authenticator, Attributes, Secret);
 * and when the answer carries a Message-Authenticator (RFC 3579, 3.2), its HMAC-MD5 over the answer with the request's
 * authenticator in place and itself zeroed.
 */
function authenticatorHolds(response: Buffer, request: Buffer, secret: string): boolean {
  const received = Buffer.from(response.subarray(4, HEADER_LENGTH));
  const copy = Buffer.from(response);
  request.copy(copy, 4, 4, HEADER_LENGTH);
  const expected = createHash('md5').update(copy).update(secret).digest();
  if (!timingSafeEqual(received, expected)) return false;
  const at = messageAuthenticatorAt(copy);
  if (at === null) return true;
  if (at < 0) return false;
  const sent = Buffer.from(copy.subarray(at, at + 16));
  copy.fill(0, at, at + 16);
  return timingSafeEqual(sent, createHmac('md5', secret).update(copy).digest());
}

/** Where the Message-Authenticator's value starts; null: none; -1: attributes that do not parse. */
function messageAuthenticatorAt(packet: Buffer): number | null {
  let offset = HEADER_LENGTH;
  while (offset < packet.length) {
    const type = packet[offset];
    const length = packet[offset + 1] ?? 0;
    if (length < 2 || offset + length > packet.length) return -1;
    if (type === MESSAGE_AUTHENTICATOR) return length === 18 ? offset + 2 : -1;
    offset += length;
  }
  return null;
}

function replyMessage(value: unknown): string {
  const parts = (Array.isArray(value) ? value : [value]).filter((part) => typeof part === 'string' || Buffer.isBuffer(part));
  const text = parts.map((part) => String(part)).join(' ');
  return text
    .replace(/[\x00-\x1f\x7f]+/g, ' ')
    .trim()
    .slice(0, REPLY_MAX);
}

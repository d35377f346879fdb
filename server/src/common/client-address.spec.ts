import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { parseTrustProxy, TrustProxy } from '../config/trust-proxy';
import { clientAddress, handshakeAddress, normalizeAddress, TrustFunction, trustFunction } from './client-address';

// Express's own walk behind `req.ip` (express depends on it): the spec drives what production runs.
const proxyaddr = proxyAddr as unknown as (req: IncomingMessage, trust: TrustFunction) => string;

const trust = (raw: string) => trustFunction(parseTrustProxy(raw) as TrustProxy);

/** The address the ClientIp decorator reads: `req.ip` as Express resolves it with our trust function, normalised. */
function resolveClientAddress(peer: string, forwardedFor: string | string[] | undefined, trusted: TrustFunction): string {
  // Node's HTTP parser joins repeated X-Forwarded-For headers into one, as here.
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor;
  const req = { socket: { remoteAddress: peer }, headers: header === undefined ? {} : { 'x-forwarded-for': header } };
  return normalizeAddress(proxyaddr(req as unknown as IncomingMessage, trusted));
}

describe('resolveClientAddress', () => {
  it.each([
    // [TRUST_PROXY, socket peer, X-Forwarded-For, client]
    ['', '127.0.0.1', '203.0.113.9', '127.0.0.1'],
    ['', '::ffff:10.0.0.5', '203.0.113.9', '10.0.0.5'],
    ['', '10.0.0.5', undefined, '10.0.0.5'],
    ['1', '127.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['1', '127.0.0.1', '198.51.100.1, 203.0.113.9', '203.0.113.9'],
    ['2', '127.0.0.1', '198.51.100.1, 203.0.113.9', '198.51.100.1'],
    ['1', '127.0.0.1', undefined, '127.0.0.1'],
    ['loopback', '::ffff:127.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['loopback', '10.0.0.5', '203.0.113.9', '10.0.0.5'],
    ['10.0.0.0/8', '10.0.0.5', '198.51.100.1, 10.0.0.7', '198.51.100.1'],
    ['10.0.0.0/8', '10.0.0.5', 'anything, 10.0.0.7', 'anything'],
    ['10.0.0.0/8', '10.0.0.5', '10.0.0.1, 10.0.0.7', '10.0.0.1'],
  ])('with TRUST_PROXY=%j, peer %s and X-Forwarded-For %j the client is %s', (setting, peer, header, client) => {
    expect(resolveClientAddress(peer, header, trust(setting))).toBe(client);
  });

  it('never takes a rotating header from an untrusted peer', () => {
    const seen = new Set(Array.from({ length: 50 }, (_, i) => resolveClientAddress('127.0.0.1', `198.51.100.${i}`, trust(''))));
    expect([...seen]).toEqual(['127.0.0.1']);
  });

  it('joins repeated headers and bounds what it keeps', () => {
    expect(resolveClientAddress('127.0.0.1', ['198.51.100.1', '203.0.113.9'], trust('1'))).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', 'x'.repeat(500), trust('1'))).toHaveLength(64);
    expect(normalizeAddress(undefined)).toBe('unknown');
  });
});

describe('clientAddress (the push route, answered before Express)', () => {
  const request = (peer: string | undefined, header?: string) =>
    ({ socket: { remoteAddress: peer }, headers: header === undefined ? {} : { 'x-forwarded-for': header } }) as unknown as IncomingMessage;

  it.each([
    ['', '127.0.0.1', '203.0.113.9'],
    ['', '10.0.0.5', undefined],
    ['1', '127.0.0.1', '203.0.113.9'],
    ['1', '127.0.0.1', '198.51.100.1, 203.0.113.9'],
    ['2', '127.0.0.1', '198.51.100.1, 203.0.113.9'],
    ['3', '127.0.0.1', '198.51.100.1, 203.0.113.9'],
    ['2', '127.0.0.1', ' 198.51.100.1 ,, 203.0.113.9 , '],
    ['2', '127.0.0.1', '198.51.100.1 x, 203.0.113.9'],
    ['1', '127.0.0.1', ''],
    ['1', '127.0.0.1', ' , '],
    ['loopback', '::ffff:127.0.0.1', '203.0.113.9'],
    ['loopback', '10.0.0.5', '203.0.113.9'],
    ['loopback', '127.0.0.1', '203.0.113.9, 127.0.0.2, ::1'],
    ['10.0.0.0/8', '10.0.0.5', '198.51.100.1, 10.0.0.7'],
    ['10.0.0.0/8', '10.0.0.5', '10.0.0.1, 10.0.0.7'],
    ['10.0.0.0/8', '10.0.0.5', 'anything, 10.0.0.7'],
  ])('with TRUST_PROXY=%j, peer %s and X-Forwarded-For %j it finds what Express finds', (setting, peer, header) => {
    const trusted = trust(setting);
    expect(clientAddress(request(peer, header), trusted)).toBe(proxyaddr(request(peer, header), trusted));
  });

  it('answers no address for a socket that has none (closed), as Express', () => {
    expect(clientAddress(request(undefined, '203.0.113.9'), trust('1'))).toBeUndefined();
  });
});

describe('handshakeAddress (sockets: the wall and the agents namespace)', () => {
  it.each([
    ['', '::ffff:127.0.0.1', '203.0.113.9', '127.0.0.1'],
    ['loopback', '::ffff:127.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['1', '127.0.0.1', '198.51.100.1, ::ffff:203.0.113.9', '203.0.113.9'],
    ['loopback', '10.0.0.5', '203.0.113.9', '10.0.0.5'],
  ])('with TRUST_PROXY=%j, peer %s and X-Forwarded-For %j names %s, as ClientIp would', (setting, peer, header, client) => {
    const trusted = trust(setting);
    const address = handshakeAddress({ address: peer, headers: { 'x-forwarded-for': header } }, trusted);
    expect(address).toBe(client);
    expect(address).toBe(resolveClientAddress(peer, header, trusted));
  });
});

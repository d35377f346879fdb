import { parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it.each([undefined, '', ' ', '0', 'false', 'off', 'OFF'])('never trusts proxy headers for %j', (raw) => {
    expect(parseTrustProxy(raw)).toEqual({ kind: 'off' });
  });

  it('reads a number as the count of proxies in front of Vigil', () => {
    expect(parseTrustProxy('1')).toEqual({ kind: 'hops', hops: 1 });
    expect(parseTrustProxy(' 3 ')).toEqual({ kind: 'hops', hops: 3 });
  });

  it('reads addresses, subnets and named ranges', () => {
    expect(parseTrustProxy('10.1.2.3, 172.16.0.0/12,::1,fd00::/8')).toEqual({
      kind: 'subnets',
      subnets: [
        { address: '10.1.2.3', prefix: 32, family: 'ipv4' },
        { address: '172.16.0.0', prefix: 12, family: 'ipv4' },
        { address: '::1', prefix: 128, family: 'ipv6' },
        { address: 'fd00::', prefix: 8, family: 'ipv6' },
      ],
    });
    expect(parseTrustProxy('loopback')).toEqual({
      kind: 'subnets',
      subnets: [
        { address: '127.0.0.0', prefix: 8, family: 'ipv4' },
        { address: '::1', prefix: 128, family: 'ipv6' },
      ],
    });
  });

  it.each(['true', '11', '10.0.0.0/33', '::/129', 'proxy.local', '10.0.0.1,', '10.0.0/8', '10.0.0.0/8/1', '1.2.3.4/-1'])(
    'refuses %j with a message naming TRUST_PROXY',
    (raw) => {
      const result = parseTrustProxy(raw);
      expect(result).toHaveProperty('error');
      expect((result as { error: string }).error).toContain('TRUST_PROXY');
    },
  );
});

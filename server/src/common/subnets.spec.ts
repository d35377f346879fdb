import { parseSubnet, subnetMatcher } from './subnets';

describe('parseSubnet', () => {
  it.each([
    ['10.1.2.3', { address: '10.1.2.3', prefix: 32, family: 'ipv4' }],
    ['172.16.0.0/12', { address: '172.16.0.0', prefix: 12, family: 'ipv4' }],
    ['fd00::/8', { address: 'fd00::', prefix: 8, family: 'ipv6' }],
    ['::ffff:10.0.0.1', { address: '10.0.0.1', prefix: 32, family: 'ipv4' }],
    ['::ffff:10.0.0.0/104', { address: '10.0.0.0', prefix: 8, family: 'ipv4' }],
  ])('reads %s', (entry, subnet) => {
    expect(parseSubnet(entry)).toEqual(subnet);
  });

  it.each(['10.0.0.0/33', '::/129', '::ffff:10.0.0.0/95', 'example.com/8', '10.0.0/8', '10.0.0.0/', '1.2.3.4/-1', '10.0.0.0/8/1'])(
    'refuses %s',
    (entry) => {
      expect(parseSubnet(entry)).toBeNull();
    },
  );
});

describe('subnetMatcher', () => {
  const sut = subnetMatcher([parseSubnet('10.0.0.0/8')!, parseSubnet('fd00::/8')!]);

  it.each([
    ['10.200.3.4', true],
    ['::ffff:10.1.1.1', true],
    ['[fd12::1]', true],
    ['11.0.0.1', false],
    ['fe80::1', false],
    ['not an address', false],
  ])('places %s inside: %s', (address, inside) => {
    expect(sut(address)).toBe(inside);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Agent, request } from 'undici';
import { DEFAULT_OUTBOUND_DENY, DEFAULT_USER_OUTBOUND_DENY } from '../config/config';
import { AddressDenyList, guardedConnector, outboundRefusal } from './outbound';
import { OutboundPolicy, OwnServices } from './outbound-policy';
import { canonicalAddress } from './subnets';

describe('canonicalAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '0:0:0:0:0:0:0:1'],
    ['::', '0:0:0:0:0:0:0:0'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['[::FFFF:7F00:0001]', '127.0.0.1'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', '169.254.169.254'],
    ['::127.0.0.1', '127.0.0.1'],
    ['::ffff:0.0.0.0', '0.0.0.0'],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
    ['FD00:EC2::254', 'fd00:ec2:0:0:0:0:0:254'],
    ['example.com', null],
    ['127.1', null],
  ])('spells %s as %s', (address, canonical) => {
    expect(canonicalAddress(address)).toBe(canonical);
  });
});

describe('AddressDenyList with the list docs/security.md recommends', () => {
  const sut = AddressDenyList.parse('169.254.0.0/16, 127.0.0.0/8, ::1/128, fd00::/8');

  it.each(['0.0.0.0', '[::]', '::', '0.1.2.3', '::ffff:0.0.0.0', '::ffff:7f00:1', '[::ffff:127.0.0.1]', '127.255.0.1', '::ffff:a9fe:a9fe'])(
    'counts %s as loopback or its IPv4, and refuses it',
    (address) => {
      expect(sut.denies(address)).toBe(true);
    },
  );

  it('leaves the unspecified addresses alone when the list has no loopback', () => {
    expect(AddressDenyList.parse('10.0.0.0/8').denies('0.0.0.0')).toBe(false);
  });
});

describe('the default lists', () => {
  const deny = AddressDenyList.parse(DEFAULT_OUTBOUND_DENY);
  const userDeny = AddressDenyList.parse(DEFAULT_USER_OUTBOUND_DENY, 'USER_OUTBOUND_DENY');

  it.each(['169.254.169.254', 'fe80::1', 'fd00:ec2::254', '::ffff:169.254.169.254'])(
    'refuse the link-local or metadata %s to everyone',
    (address) => {
      expect(deny.denies(address)).toBe(true);
    },
  );

  it.each(['127.0.0.1', '127.0.0.53', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1'])('refuse loopback-like %s to users', (address) => {
    expect(userDeny.denies(address)).toBe(true);
    expect(deny.denies(address)).toBe(false);
  });

  it.each(['10.0.0.1', '192.168.1.1', '8.8.8.8', '2001:db8::1'])('leave %s to everyone', (address) => {
    expect(deny.denies(address) || userDeny.denies(address)).toBe(false);
  });
});

describe(OwnServices.name, () => {
  const lanAddress = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address;

  it.each([
    ['127.0.0.1', 3000, true],
    ['127.0.0.2', 3000, true],
    ['::1', 3000, true],
    ['0.0.0.0', 3000, true],
    ['::', 3000, true],
    ['::ffff:127.0.0.1', 3000, true],
    ['::ffff:7f00:1', 3000, true],
    ['127.0.0.1', 3001, false],
    ['203.0.113.9', 3000, false],
  ])('counts %s port %d as Vigil listening on 0.0.0.0:3000: %s', (address, port, covered) => {
    expect(new OwnServices([{ host: '0.0.0.0', port: 3000 }]).covers(address, port)).toBe(covered);
  });

  it("counts this machine's own interface addresses for a service on loopback", () => {
    if (!lanAddress) return expect(lanAddress).toBeUndefined();
    expect(new OwnServices([{ host: 'localhost', port: 5432 }]).covers(lanAddress, 5432)).toBe(true);
  });

  it('counts only the address of a service elsewhere', () => {
    const sut = new OwnServices([{ host: '203.0.113.7', port: 5432 }]);
    expect(sut.covers('203.0.113.7', 5432)).toBe(true);
    expect(sut.covers('::ffff:203.0.113.7', 5432)).toBe(true);
    expect(sut.covers('127.0.0.1', 5432)).toBe(false);
    expect(sut.covers('203.0.113.8', 5432)).toBe(false);
  });

  it('resolves a named service and counts what it resolves to', async () => {
    const sut = new OwnServices([{ host: 'localhost', port: 6379 }]);
    await sut.refresh();
    expect(sut.covers('127.0.0.1', 6379)).toBe(true);
    expect(sut.covers('::1', 6379)).toBe(true);
  });
});

describe(OutboundPolicy.name, () => {
  const sut = new OutboundPolicy(
    AddressDenyList.parse(DEFAULT_OUTBOUND_DENY),
    AddressDenyList.parse(DEFAULT_USER_OUTBOUND_DENY, 'USER_OUTBOUND_DENY'),
    new OwnServices([{ host: '127.0.0.1', port: 5432 }]),
  );

  it.each([
    ['admin', '127.0.0.1', 80, null],
    ['user', '127.0.0.1', 80, 'USER_OUTBOUND_DENY'],
    ['admin', '127.0.0.1', 5432, 'OWN_SERVICE'],
    ['admin', '::ffff:7f00:1', 5432, 'OWN_SERVICE'],
    ['user', '0.0.0.0', 5432, 'OWN_SERVICE'],
    ['admin', '169.254.169.254', 80, 'OUTBOUND_DENY'],
    ['user', '10.1.2.3', 5432, null],
  ] as const)('judges a %s check of %s port %d: %s', (scope, address, port, rule) => {
    expect(sut.guard(scope).refusal(address, port)).toBe(rule);
  });

  it('judges a name on what it resolves to, naming the rule', async () => {
    expect(await sut.refusal('admin', 'localhost', 8080)).toBeNull();
    expect((await sut.refusal('user', 'localhost', 8080))?.rule).toBe('USER_OUTBOUND_DENY');
    expect((await sut.refusal('admin', '[::ffff:127.0.0.1]', 5432))?.rule).toBe('OWN_SERVICE');
    expect(await sut.refusal('user', 'no-such-host.invalid', 80)).toBeNull();
  });
});

describe('guardedConnector on a port of an own service', () => {
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('own'));
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each(['localhost', '127.0.0.1', '0.0.0.0', '[::ffff:127.0.0.1]'])('refuses %s before any connection', async (host) => {
    const policy = new OutboundPolicy(AddressDenyList.parse(''), AddressDenyList.parse(''), new OwnServices([{ host: '0.0.0.0', port }]));
    const agent = new Agent({ connect: guardedConnector(policy.guard('admin')) });
    const failure = await request(`http://${host}:${port}/`, { dispatcher: agent }).catch((error: unknown) => error);
    expect(outboundRefusal(failure)?.rule).toBe('OWN_SERVICE');
    expect(connections).toBe(0);
    await agent.close();
  });
});

import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { Agent, interceptors, request } from 'undici';
import { AddressDenyList, guardedConnector, guardedLookup, isOutboundDenied, resolveAllowed } from './outbound';

describe('AddressDenyList', () => {
  const sut = AddressDenyList.parse('127.0.0.2/32, 10.0.0.0/8 fd00::/8 192.168.1.5');

  it.each([
    ['127.0.0.2', true],
    ['127.0.0.1', false],
    ['10.200.3.4', true],
    ['::ffff:10.1.1.1', true],
    ['[fd12::1]', true],
    ['fe80::1', false],
    ['192.168.1.5', true],
    ['192.168.1.6', false],
    ['example.com', false],
  ])('judges %s as denied: %s', (address, denied) => {
    expect(sut.denies(address)).toBe(denied);
  });

  it('is empty for an empty setting', () => {
    expect(AddressDenyList.parse('').empty).toBe(true);
  });

  it.each(['10.0.0.0/33', 'fd00::/129', 'example.com/8', '10.0.0/8', '10.0.0.0/', '1.2.3.4/-1'])('refuses %s naming it', (entry) => {
    expect(() => AddressDenyList.parse(`127.0.0.1/32, ${entry}`)).toThrow(`"${entry}" is not an IPv4 or IPv6 CIDR`);
  });
});

describe('guardedConnector', () => {
  let allowed: Server;
  let denied: Server;
  let allowedUrl: string;
  let deniedUrl: string;

  const listen = async (host: string, handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return { server, url: `http://${host}:${(server.address() as AddressInfo).port}` };
  };

  beforeAll(async () => {
    ({ server: denied, url: deniedUrl } = await listen('127.0.0.2', (_req, res) => res.end('secret')));
    ({ server: allowed, url: allowedUrl } = await listen('127.0.0.1', (_req, res) =>
      res.writeHead(302, { location: `${deniedUrl}/` }).end(),
    ));
  });
  afterAll(async () => {
    await Promise.all([allowed, denied].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const agentFor = (ranges: string) => new Agent({ connect: guardedConnector(AddressDenyList.parse(ranges)) });

  it('connects anywhere when nothing is denied', async () => {
    const sut = agentFor('');
    const response = await request(`${deniedUrl}/`, { dispatcher: sut });
    expect(await response.body.text()).toBe('secret');
    await sut.close();
  });

  it('refuses a denied IP literal before connecting', async () => {
    const sut = agentFor('127.0.0.2/32');
    const failure = await request(`${deniedUrl}/`, { dispatcher: sut }).catch((error: unknown) => error);
    expect(isOutboundDenied(failure)).toBe(true);
    await sut.close();
  });

  it('refuses a name that resolves only to denied addresses', async () => {
    const sut = agentFor('127.0.0.0/8, ::1/128');
    const port = new URL(deniedUrl).port;
    const failure = await request(`http://localhost:${port}/`, { dispatcher: sut }).catch((error: unknown) => error);
    expect(isOutboundDenied(failure)).toBe(true);
    await sut.close();
  });

  it('refuses a redirect from an allowed address to a denied one', async () => {
    const agent = agentFor('127.0.0.2/32');
    const sut = agent.compose(interceptors.redirect({ maxRedirections: 5 }));
    const failure = await request(`${allowedUrl}/`, { dispatcher: sut }).catch((error: unknown) => error);
    expect(isOutboundDenied(failure)).toBe(true);
    await agent.close();
  });
});

describe('guardedLookup as a socket lookup', () => {
  let server: ReturnType<typeof createNetServer>;
  let port: number;

  beforeAll(async () => {
    server = createNetServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const connectTo = (host: string, ranges: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect({ host, port, lookup: guardedLookup(AddressDenyList.parse(ranges)) });
      socket.on('error', reject);
      socket.on('data', (data) => resolve(`${socket.remoteAddress} ${String(data)}`));
    });

  it('connects to an address the deny list leaves, trying each the name resolves to', async () => {
    await expect(connectTo('localhost', '::1')).resolves.toBe('127.0.0.1 hello');
  });

  it('fails when every address of the name is denied', async () => {
    await expect(connectTo('localhost', '127.0.0.0/8, ::1')).rejects.toMatchObject({ code: 'EOUTBOUNDDENIED' });
  });

  it('fails with the resolver code for a name that does not exist', async () => {
    await expect(connectTo('no-such-host.invalid', '')).rejects.toMatchObject({ code: expect.stringMatching(/ENOTFOUND|EAI_AGAIN/) });
  });
});

describe('resolveAllowed', () => {
  it('takes an allowed IP literal as it is, brackets removed', async () => {
    expect(await resolveAllowed('[::1]', AddressDenyList.parse('10.0.0.0/8'))).toEqual({ address: '::1', family: 6 });
  });

  it('refuses a denied IP literal without a lookup', async () => {
    await expect(resolveAllowed('127.0.0.3', AddressDenyList.parse('127.0.0.0/8'))).rejects.toMatchObject({
      code: 'EOUTBOUNDDENIED',
      address: '127.0.0.3',
    });
  });

  it('resolves a name to an allowed address and refuses a name whose every address is denied', async () => {
    expect((await resolveAllowed('localhost', AddressDenyList.parse(''))).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    await expect(resolveAllowed('localhost', AddressDenyList.parse('127.0.0.0/8, ::1'))).rejects.toMatchObject({ code: 'EOUTBOUNDDENIED' });
  });

  it('fails with the lookup error for a name that does not resolve', async () => {
    await expect(resolveAllowed('no-such-host.invalid', AddressDenyList.parse(''))).rejects.toMatchObject({
      code: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)$/),
    });
  });
});

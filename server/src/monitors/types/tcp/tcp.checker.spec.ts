import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { startTcpServer, type FakeTcpServer } from '../../checkers/fakes/tcp-server.testing';
import { TcpChecker } from './tcp.checker';

const tcpTarget = (hostname: string, port: number, timeout = 5): CheckTarget<'tcp'> => ({
  id: 1,
  scope: 'admin',
  type: 'tcp',
  hostname,
  port,
  timeout,
  assertions: [],
});

describe('TcpChecker', () => {
  const sut = new TcpChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') });
  let server: FakeTcpServer;

  beforeAll(async () => {
    server = await startTcpServer();
  });
  afterAll(() => server.close());

  it('is up when the port accepts a connection, timing the connect', async () => {
    const result = await sut.check(tcpTarget('127.0.0.1', server.port));
    expect(result).toMatchObject({ ok: true, statusCode: null, error: null, observed: {} });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
    expect(result.responseTime).toBeLessThan(5000);
  });

  it('resolves a name first', async () => {
    const before = server.connections;
    const result = await sut.check(tcpTarget('localhost', server.port));
    expect(result.ok).toBe(true);
    expect(server.connections).toBe(before + 1);
  });

  it('is down while the port is closed and up again once it listens', async () => {
    await server.stop();
    expect(await sut.check(tcpTarget('127.0.0.1', server.port))).toMatchObject({
      ok: false,
      responseTime: null,
      error: 'Connection refused',
    });
    await server.start();
    expect((await sut.check(tcpTarget('127.0.0.1', server.port))).ok).toBe(true);
  });

  it('refuses a denied address, literal or resolved, without connecting', async () => {
    const denied = await startTcpServer('127.0.0.2');
    try {
      const literal = await sut.check(tcpTarget('127.0.0.2', denied.port));
      expect(literal).toMatchObject({ ok: false, error: 'Address 127.0.0.2 is refused by OUTBOUND_DENY' });
      const everything = new TcpChecker({ outbound: AddressDenyList.parse('127.0.0.0/8, ::1/128') });
      const named = await everything.check(tcpTarget('localhost', server.port));
      expect(named).toMatchObject({ ok: false, error: expect.stringMatching(/^Address (127\.0\.0\.1|::1) is refused by OUTBOUND_DENY$/) });
      expect(denied.connections).toBe(0);
    } finally {
      await denied.close();
    }
  });
});

import { createServer, type AddressInfo, type Server } from 'node:net';
import { connect, type ChannelModel } from 'amqplib';
import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { createSelfSignedCertificate } from '../../checkers/fakes/certificates.testing';
import { closedPort, silentServer, type FakeServer } from '../../checkers/fakes/database-servers.testing';
import { startTlsServer, type FakeTlsServer } from '../../checkers/fakes/tls-server.testing';
import { AmqpChecker, describeAmqpFailure } from './amqp.checker';

/** The RabbitMQ this machine (and CI) runs on 127.0.0.1:5672 with its default guest account. */
const BROKER = { hostname: '127.0.0.1', port: 5672 };
const QUEUE = `vigil-spec-${process.pid}-${Date.now()}`;

const target = (settings: Record<string, unknown> = {}, overrides: Partial<AddedCheckTarget<'amqp'>> = {}): AddedCheckTarget<'amqp'> => ({
  id: 1,
  type: 'amqp',
  scope: 'admin',
  timeout: 5,
  assertions: [],
  url: '',
  ...BROKER,
  settings: { amqpUsername: 'guest', amqpPassword: 'guest', amqpVhost: '/', amqpTls: false, ignoreTls: false, ...settings },
  ...overrides,
});

describe('AmqpChecker', () => {
  const sut = new AmqpChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') });
  let admin: ChannelModel;

  beforeAll(async () => {
    admin = await connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await admin.createConfirmChannel();
    await channel.assertQueue(QUEUE, { autoDelete: false, durable: false });
    for (const text of ['one', 'two', 'three']) channel.sendToQueue(QUEUE, Buffer.from(text));
    await channel.waitForConfirms();
    await channel.close();
  });
  afterAll(async () => {
    const channel = await admin.createChannel();
    await channel.deleteQueue(QUEUE);
    await admin.close();
  });

  it('is up when the broker accepts the login, timing the handshake', async () => {
    const result = await sut.check(target());
    expect(result).toMatchObject({ ok: true, error: null, observed: {} });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
  });

  it("reports a queue's ready messages and consumers", async () => {
    expect((await sut.check(target({ amqpQueue: QUEUE }))).observed.metrics).toEqual({ queueDepth: 3, consumers: 0 });
    const channel = await admin.createChannel();
    await channel.prefetch(1);
    const { consumerTag } = await channel.consume(QUEUE, () => undefined);
    try {
      // One message is now delivered and unacknowledged, so two stay ready.
      expect((await sut.check(target({ amqpQueue: QUEUE }))).observed.metrics).toEqual({ queueDepth: 2, consumers: 1 });
    } finally {
      await channel.cancel(consumerTag);
      await channel.close();
    }
  });

  it.each([
    ['a missing queue', { amqpQueue: `${QUEUE}-missing` }, `AMQP queue "${QUEUE}-missing" does not exist`],
    ['a wrong password', { amqpPassword: 'not-the-password' }, 'AMQP login refused: wrong user name or password'],
    ['an unknown user', { amqpUsername: 'nobody-here', amqpPassword: 'x' }, 'AMQP login refused: wrong user name or password'],
    ['a missing vhost', { amqpVhost: 'no-such-vhost' }, 'AMQP vhost "no-such-vhost" does not exist or this user may not use it'],
  ])('names %s', async (_case, settings, error) => {
    expect(await sut.check(target(settings))).toMatchObject({ ok: false, responseTime: null, error });
  });

  it('fails within the timeout against a server that accepts and says nothing', async () => {
    const silent = await silentServer();
    try {
      const started = performance.now();
      const result = await sut.check(target({}, { port: silent.port, timeout: 1 }));
      expect(result).toMatchObject({ ok: false, error: 'Timeout after 1 s' });
      expect(performance.now() - started).toBeLessThan(7500);
    } finally {
      await silent.close();
    }
  });

  it('names a server that speaks something else, reading no more than one frame of it', async () => {
    const chatty = await endlessServer();
    try {
      expect(await sut.check(target({}, { port: chatty.port, timeout: 3 }))).toMatchObject({
        ok: false,
        error: 'The server does not speak AMQP 0-9-1',
      });
    } finally {
      await chatty.close();
    }
  });

  it('names a refused connection and a denied address without connecting', async () => {
    expect((await sut.check(target({}, { port: await closedPort() }))).error).toBe('Connection refused');
    expect((await sut.check(target({}, { hostname: '127.0.0.2' }))).error).toBe('Address 127.0.0.2 is refused by OUTBOUND_DENY');
  });

  describe('over TLS', () => {
    let tls: FakeTlsServer;
    beforeAll(async () => {
      tls = await startTlsServer(createSelfSignedCertificate());
    });
    afterAll(() => tls.close());

    it('refuses a certificate Node does not trust before logging in', async () => {
      const result = await sut.check(target({ amqpTls: true }, { hostname: 'localhost', port: tls.port }));
      expect(result).toMatchObject({ ok: false, error: 'TLS error: self-signed certificate' });
    });

    it('names a broker that does not speak TLS', async () => {
      expect((await sut.check(target({ amqpTls: true }))).error).toBe('TLS error: the server does not speak TLS on this port');
    });

    it('goes on to the handshake when TLS errors are ignored', async () => {
      // The fake ends the connection after the TLS handshake, so the AMQP handshake is what fails now.
      const result = await sut.check(target({ amqpTls: true, ignoreTls: true }, { hostname: 'localhost', port: tls.port }));
      expect(result).toMatchObject({ ok: false, error: 'The server closed the connection during the AMQP handshake' });
    });
  });

  it.each([
    [new Error('connect ETIMEDOUT'), 'Timeout after 7 s'],
    [new Error('Socket closed abruptly during opening handshake'), 'The server closed the connection during the AMQP handshake'],
    [new Error('Frame size 999999999 exceeds maxFrameSize 131072'), 'The server does not speak AMQP 0-9-1'],
    [new Error('SASL mechanism PLAIN is not provided by the server'), 'The broker does not offer PLAIN login'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'Connection refused'],
    [Object.assign(new Error('expired'), { code: 'CERT_HAS_EXPIRED' }), 'TLS error: certificate has expired'],
    [new Error(`odd failure ${'x'.repeat(500)}`), `odd failure ${'x'.repeat(187)}…`],
  ])('describes "%s" as "%s"', (error, text) => {
    expect(describeAmqpFailure(error, 7, { amqpVhost: '/' })).toBe(text);
  });
});

/** Answers the AMQP protocol header with text until the client hangs up (an HTTP server, a hostile one). */
async function endlessServer(): Promise<FakeServer> {
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    const line = Buffer.from('HTTP/1.1 400 Bad Request\r\n'.repeat(1000));
    const pour = () => {
      while (!socket.destroyed && socket.write(line));
    };
    socket.on('drain', pour);
    socket.once('data', pour);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

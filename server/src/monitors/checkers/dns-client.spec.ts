import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { DnsClient } from './dns-client';
import { decodeAnswer, encodeQuestion, ipv6Text } from './dns-wire';

/** An answer to `query` with A records for each address (the question copied, records pointing at its name). */
function answerTo(query: Buffer, addresses: string[], flags = 0x8180): Buffer {
  const questionEnd = query.indexOf(0, 12) + 5;
  const header = Buffer.from(query.subarray(0, 12));
  header.writeUInt16BE(flags, 2);
  header.writeUInt16BE(addresses.length, 6);
  header.writeUInt16BE(0, 10);
  const records = addresses.map((address) =>
    Buffer.concat([Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4]), Buffer.from(address.split('.').map(Number))]),
  );
  return Buffer.concat([header, query.subarray(12, questionEnd), ...records]);
}

/** The A address a fake answers for a question: 10.0.0.<its first label's number>, so each answer is its own. */
const addressFor = (query: Buffer) => `10.0.0.${query.toString('latin1', 13, 13 + query[12]).replace(/\D/g, '') || '1'}`;

async function udpServer(onQuery: (query: Buffer, reply: (packet: Buffer) => void) => void): Promise<{ socket: UdpSocket; port: number }> {
  const socket = createSocket('udp4');
  socket.on('message', (query, remote) => onQuery(query, (packet) => socket.send(packet, remote.port, remote.address)));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, port: socket.address().port };
}

describe('ipv6Text', () => {
  it.each([
    ['20010db8000000000000000000000001', '2001:db8::1'],
    ['00000000000000000000000000000001', '::1'],
    ['00000000000000000000000000000000', '::'],
    ['20010db8000000010000000000000001', '2001:db8:0:1::1'],
    ['20010db8000100000001000000000000', '2001:db8:1:0:1::'],
    ['20010db8000100020003000400050006', '2001:db8:1:2:3:4:5:6'],
    ['00000000000000000000ffffc0000201', '::ffff:192.0.2.1'],
  ])('%s → %s', (hex, text) => {
    expect(ipv6Text(Buffer.from(hex, 'hex'))).toBe(text);
  });
});

describe('decodeAnswer', () => {
  const { packet: question } = encodeQuestion('example.test', 'A', 0x1234);

  it('reads the records of the type asked and ignores an answer to another question', () => {
    expect(decodeAnswer(answerTo(question, ['192.0.2.1', '192.0.2.2']), question, 'A')).toEqual({
      truncated: false,
      records: ['192.0.2.1', '192.0.2.2'],
    });
    const other = Buffer.from(answerTo(question, ['192.0.2.1']));
    other.writeUInt16BE(0x4321, 0);
    expect(decodeAnswer(other, question, 'A')).toBeNull();
  });

  it('refuses a compression loop and a truncated packet instead of hanging or reading past the end', () => {
    const looped = answerTo(question, ['192.0.2.1']);
    // The answer's name points at itself.
    const at = looped.length - 16;
    looped.writeUInt16BE(0xc000 | at, at);
    expect(() => decodeAnswer(looped, question, 'A')).toThrow(expect.objectContaining({ code: 'EBADRESP' }));
    const answer = answerTo(question, ['192.0.2.1']);
    expect(() => decodeAnswer(answer.subarray(0, answer.length - 2), question, 'A')).toThrow(expect.objectContaining({ code: 'EBADRESP' }));
  });

  it('answers the rcode as c-ares names it', () => {
    expect(() => decodeAnswer(answerTo(question, [], 0x8183), question, 'A')).toThrow(expect.objectContaining({ code: 'ENOTFOUND' }));
    expect(() => decodeAnswer(answerTo(question, [], 0x8180), question, 'A')).toThrow(expect.objectContaining({ code: 'ENODATA' }));
  });
});

describe('DnsClient', () => {
  const client = new DnsClient();
  const closing: Array<UdpSocket | Server> = [];
  afterAll(async () => {
    client.close();
    await Promise.all(closing.map((item) => new Promise<void>((resolve) => item.close(() => resolve()))));
  });

  it('asks many questions on one socket, each answered with its own records whatever the order', async () => {
    const ports = new Set<number>();
    const held: Array<() => void> = [];
    const { socket, port } = await udpServer((query, reply) => {
      held.push(() => reply(answerTo(query, [addressFor(query)])));
      // Answered in reverse order once all have arrived.
      if (held.length === 20) held.reverse().forEach((send) => send());
    });
    socket.on('message', (_query, remote) => ports.add(remote.port));
    closing.push(socket);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.query('127.0.0.1', port, 'A', `h${i + 1}.test`, 2000)));
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => [`10.0.0.${i + 1}`]));
    expect(ports.size).toBe(1);
  });

  it('fails at once when nothing listens on the port', async () => {
    const { socket, port } = await udpServer(() => undefined);
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    const started = performance.now();
    await expect(client.query('127.0.0.1', port, 'A', 'gone.test', 3000)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('bounds the questions in flight to one server with an error of its own, not a server refusal', async () => {
    const { socket, port } = await udpServer(() => undefined);
    closing.push(socket);
    const own = new DnsClient();
    const waiting = Array.from({ length: 20_000 }, (_, i) =>
      own.query('127.0.0.1', port, 'A', `q${i}.test`, 1000).catch((error: Error) => error),
    );
    const refused = await own.query('127.0.0.1', port, 'A', 'one-more.test', 1000).catch((error: Error & { code?: string }) => error);
    expect(refused).toMatchObject({ message: `Too many DNS questions in flight to 127.0.0.1` });
    expect((refused as { code?: string }).code).toBeUndefined();
    // The silent server lets every question time out; then the socket takes questions again.
    expect((await Promise.all(waiting)).every((error) => error instanceof Error && error.name === 'TimeoutError')).toBe(true);
    own.close();
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    const tcp = createServer((connection) => {
      let received = Buffer.alloc(0);
      connection.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
        const answer = answerTo(received.subarray(2), ['192.0.2.7', '192.0.2.8']);
        const length = Buffer.alloc(2);
        length.writeUInt16BE(answer.length);
        connection.end(Buffer.concat([length, answer]));
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    const udp = createSocket('udp4');
    udp.on('message', (query, remote) => udp.send(answerTo(query, [], 0x8380), remote.port, remote.address));
    await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
    closing.push(tcp, udp);
    await expect(client.query('127.0.0.1', port, 'A', 'long.test', 2000)).resolves.toEqual(['192.0.2.7', '192.0.2.8']);
  });
});

import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import type { DnsRecordType } from '@vigil/proto';
import { DnsClient } from './dns-client';
import { decodeAnswer, encodeQuestion, ipv6Text, TYPE_CODES } from './dns-wire';

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

  /** An answer to a question of `type` with one record of that type whose data is `rdata`, ending the packet. */
  function answerWith(type: DnsRecordType, rdata: Buffer): { question: Buffer; packet: Buffer } {
    const { packet: asked } = encodeQuestion('example.test', type, 0x1234);
    const header = Buffer.from(asked.subarray(0, 12));
    header.writeUInt16BE(0x8180, 2);
    header.writeUInt16BE(1, 6);
    header.writeUInt16BE(0, 10);
    const fixed = Buffer.from([0xc0, 12, 0, 0, 0, 1, 0, 0, 0, 60, 0, 0]);
    fixed.writeUInt16BE(TYPE_CODES[type], 2);
    fixed.writeUInt16BE(rdata.length, 10);
    return { question: asked, packet: Buffer.concat([header, asked.subarray(12, asked.indexOf(0, 12) + 5), fixed, rdata]) };
  }

  it.each<[DnsRecordType, number]>([
    ['A', 2],
    ['AAAA', 4],
    ['AAAA', 0],
    ['MX', 1],
    ['SRV', 5],
    ['CAA', 1],
    ['TXT', 1],
    ['SOA', 2],
  ])('refuses a short %s record (%i bytes) as a malformed answer, not a RangeError', (type, bytes) => {
    const { question: asked, packet } = answerWith(type, Buffer.alloc(bytes, 3));
    expect(() => decodeAnswer(packet, asked, type)).toThrow(
      expect.objectContaining({ name: 'Error', code: 'EBADRESP', message: `Malformed DNS answer: ${type} record of ${bytes} bytes` }),
    );
  });

  it('refuses a name in a record that runs past the record, not into what follows', () => {
    const { question: asked, packet } = answerWith('CNAME', Buffer.from([5, 0x61, 0x62]));
    expect(() => decodeAnswer(packet, asked, 'CNAME')).toThrow(expect.objectContaining({ code: 'EBADRESP' }));
  });

  it('answers every cut of an answer with records or EBADRESP, never another error', () => {
    const { question: asked, packet } = answerWith('AAAA', Buffer.from('20010db8000000000000000000000001', 'hex'));
    expect(decodeAnswer(packet, asked, 'AAAA')).toEqual({ truncated: false, records: ['2001:db8::1'] });
    for (let length = 12; length < packet.length; length += 1) {
      const cut = Buffer.from(packet.subarray(0, length));
      // The record keeps announcing its full length: the datagram is short, as a broken server or path sends it.
      let failure: unknown = null;
      try {
        decodeAnswer(cut, asked, 'AAAA');
      } catch (error) {
        failure = error;
      }
      expect({ length, failure }).toEqual({ length, failure: expect.objectContaining({ code: 'EBADRESP' }) });
    }
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

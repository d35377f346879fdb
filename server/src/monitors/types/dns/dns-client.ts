import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect } from 'node:net';
import type { DnsRecordType } from '@vigil/proto';
import { DnsAnswerError, decodeAnswer, encodeQuestion } from './dns-wire';
import { timeoutError } from '../../checkers/failure';

/** Servers with a kept socket at most; beyond this the one used least recently is closed. */
const SERVERS_KEPT = 256;
/** Questions in flight to one server at most (ids are 16 bits). */
const IN_FLIGHT_MAX = 20_000;

interface Waiting {
  question: Buffer;
  type: DnsRecordType;
  /** The records, or null when the answer was truncated (asked again over TCP). */
  resolve(records: string[] | null): void;
  reject(error: unknown): void;
}

/**
 * One kept UDP socket per DNS server, connected to it, for the questions of every monitor that names that server:
 * Node's resolver (c-ares) opens, connects and closes a socket per question, which cost a DNS check several times
 * an HTTP check's CPU at thousands of DNS monitors. Answers are matched by id and question; an ICMP "port
 * unreachable" (nothing listens) rejects what waits on that server at once, as c-ares does; a truncated answer is
 * asked again over TCP.
 */
export class DnsClient {
  private readonly servers = new Map<string, ServerSocket>();

  /** The records of `type` for `name` at `address`:`port`, as text; rejects after `timeoutMs`. */
  query(address: string, port: number, type: DnsRecordType, name: string, timeoutMs: number): Promise<string[]> {
    const key = `${address}|${port}`;
    let server = this.servers.get(key);
    if (server?.closed) server = undefined;
    if (server) this.servers.delete(key);
    else server = new ServerSocket(address, port);
    // Re-inserted on every use: the map's first entry is the one used least recently.
    this.servers.set(key, server);
    if (this.servers.size > SERVERS_KEPT) {
      const [oldest, socket] = this.servers.entries().next().value!;
      this.servers.delete(oldest);
      socket.close();
    }
    return server.ask(type, name, timeoutMs);
  }

  close(): void {
    for (const server of this.servers.values()) server.close();
    this.servers.clear();
  }
}

class ServerSocket {
  closed = false;
  private readonly socket: UdpSocket;
  private readonly ready: Promise<void>;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly address: string,
    private readonly port: number,
  ) {
    this.socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    this.socket.on('message', (packet) => this.answer(packet));
    this.socket.on('error', (error) => this.fail(error));
    this.ready = new Promise<void>((resolve) => this.socket.connect(port, address, resolve));
    // A kept socket must not keep the process alive.
    this.socket.unref();
  }

  async ask(type: DnsRecordType, name: string, timeoutMs: number): Promise<string[]> {
    // Our own bound, not the server's answer: the check's error says so in these words.
    if (this.waiting.size >= IN_FLIGHT_MAX) throw new Error(`Too many DNS questions in flight to ${this.address}`);
    let id: number;
    let packet: Buffer;
    do ({ id, packet } = encodeQuestion(name, type));
    while (this.waiting.has(id));
    const deadline = performance.now() + timeoutMs;
    const records = await new Promise<string[] | null>((resolve, reject) => {
      const timer = setTimeout(() => waiting.reject(timeoutError()), timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
      };
      const waiting: Waiting = {
        question: packet,
        type,
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
      };
      this.waiting.set(id, waiting);
      void this.ready.then(() => {
        try {
          this.socket.send(packet, (error) => error && waiting.reject(error));
        } catch (error) {
          // Closed meanwhile (an ICMP error failed the socket): this question fails with it.
          waiting.reject(error);
        }
      });
    });
    return records ?? askOverTcp(this.address, this.port, packet, type, deadline - performance.now());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close();
  }

  private answer(packet: Buffer): void {
    if (packet.length < 2) return;
    const waiting = this.waiting.get(packet.readUInt16BE(0));
    if (!waiting) return;
    try {
      const decoded = decodeAnswer(packet, waiting.question, waiting.type);
      // Not an answer to this question (a late answer to an earlier one that had the same id): keep waiting.
      if (!decoded) return;
      waiting.resolve(decoded.truncated ? null : decoded.records);
    } catch (error) {
      waiting.reject(error);
    }
  }

  /** The socket failed (ICMP port unreachable arrives as ECONNREFUSED): everything waiting fails, the socket closes. */
  private fail(error: Error): void {
    for (const waiting of [...this.waiting.values()]) waiting.reject(error);
    this.close();
  }
}

/** The question again over TCP (two length bytes before each message), for an answer too long for UDP. */
function askOverTcp(address: string, port: number, question: Buffer, type: DnsRecordType, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    const length = Buffer.alloc(2);
    length.writeUInt16BE(question.length);
    let received = Buffer.alloc(0);
    const finish = (error: unknown, records?: string[]) => {
      clearTimeout(timer);
      socket.destroy();
      if (records) resolve(records);
      else reject(error);
    };
    const timer = setTimeout(() => finish(timeoutError()), Math.max(0, timeoutMs));
    socket.on('connect', () => socket.write(Buffer.concat([length, question])));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      try {
        const decoded = decodeAnswer(received.subarray(2, 2 + received.readUInt16BE(0)), question, type);
        if (!decoded || decoded.truncated) finish(new DnsAnswerError('EBADRESP', 'No usable answer over TCP'));
        else finish(null, decoded.records);
      } catch (error) {
        finish(error);
      }
    });
    socket.on('error', (error) => finish(error));
    socket.on('end', () => finish(new DnsAnswerError('EBADRESP', 'The DNS server closed the connection')));
  });
}

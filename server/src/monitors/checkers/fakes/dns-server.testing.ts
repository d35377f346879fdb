import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIPv4 } from 'node:net';
import { ipv6Bytes } from './certificates.testing';

/** The records one name answers with, per type. */
export interface FakeDnsRecords {
  A?: string[];
  AAAA?: string[];
  CNAME?: string[];
  NS?: string[];
  PTR?: string[];
  MX?: Array<{ priority: number; exchange: string }>;
  /** One list of strings per record (a TXT record holds several strings). */
  TXT?: string[][];
  SOA?: { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number };
  SRV?: Array<{ priority: number; weight: number; port: number; target: string }>;
  CAA?: Array<{ flags: number; tag: string; value: string }>;
}

/**
 * `normal`: answer from the zone (NXDOMAIN for unknown names); `short`: the same records with their data cut to two
 * bytes (a well-framed but malformed answer); the others fail every query that way.
 */
export type FakeDnsMode = 'normal' | 'short' | 'servfail' | 'refused' | 'drop';

/** A loopback UDP DNS server answering from a settable zone, for DNS checks. */
export interface FakeDnsServer {
  port: number;
  /** `127.0.0.1:<port>`, as a monitor's dnsServer. */
  address: string;
  /** Questions received, as `name TYPE`. */
  queries: string[];
  setZone(zone: Record<string, FakeDnsRecords>): void;
  setMode(mode: FakeDnsMode): void;
  close(): Promise<void>;
}

const TYPE_CODES = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, CAA: 257 } as const;
type FakeType = keyof typeof TYPE_CODES;
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

export async function startDnsServer(zone: Record<string, FakeDnsRecords> = {}): Promise<FakeDnsServer> {
  const socket = createSocket('udp4');
  let records = normalize(zone);
  let mode: FakeDnsMode = 'normal';
  const queries: string[] = [];

  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    const question = parseQuestion(message);
    if (!question) return;
    const type = (Object.keys(TYPE_CODES) as FakeType[]).find((key) => TYPE_CODES[key] === question.type);
    queries.push(`${question.name} ${type ?? question.type}`);
    if (mode === 'drop') return;
    const known = records.get(question.name);
    const rcode = mode === 'servfail' ? RCODE.SERVFAIL : mode === 'refused' ? RCODE.REFUSED : known ? RCODE.NOERROR : RCODE.NXDOMAIN;
    const found = rcode === RCODE.NOERROR && known && type ? rdataOf(type, known) : [];
    const answers = mode === 'short' ? found.map((rdata) => rdata.subarray(0, 2)) : found;
    socket.send(response(message, question.end, rcode, question.type, answers), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    port,
    address: `127.0.0.1:${port}`,
    queries,
    setZone: (next) => (records = normalize(next)),
    setMode: (next) => (mode = next),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function normalize(zone: Record<string, FakeDnsRecords>): Map<string, FakeDnsRecords> {
  return new Map(Object.entries(zone).map(([name, value]) => [name.toLowerCase().replace(/\.$/, ''), value]));
}

function parseQuestion(message: Buffer): { name: string; type: number; end: number } | null {
  if (message.length < 17 || message.readUInt16BE(4) < 1) return null;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length && message[offset] !== 0) {
    const length = message[offset];
    labels.push(message.toString('ascii', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  if (offset + 5 > message.length) return null;
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(offset + 1), end: offset + 5 };
}

function response(query: Buffer, questionEnd: number, rcode: number, type: number, answers: Buffer[]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // QR, the query's opcode and RD, AA and RA set; then the rcode.
  header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x7900) | 0x0400 | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const records = answers.map((rdata) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the question's name
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...records]);
}

function rdataOf(type: FakeType, records: FakeDnsRecords): Buffer[] {
  switch (type) {
    case 'A':
      return (records.A ?? []).filter(isIPv4).map((address) => Buffer.from(address.split('.').map(Number)));
    case 'AAAA':
      return (records.AAAA ?? []).map(ipv6Bytes);
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return (records[type] ?? []).map(name);
    case 'MX':
      return (records.MX ?? []).map((mx) => Buffer.concat([u16(mx.priority), name(mx.exchange)]));
    case 'TXT':
      return (records.TXT ?? []).map((strings) => Buffer.concat(strings.map((text) => characterString(text))));
    case 'SOA': {
      const soa = records.SOA;
      if (!soa) return [];
      const numbers = [soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum].map(u32);
      return [Buffer.concat([name(soa.mname), name(soa.rname), ...numbers])];
    }
    case 'SRV':
      return (records.SRV ?? []).map((srv) => Buffer.concat([u16(srv.priority), u16(srv.weight), u16(srv.port), name(srv.target)]));
    case 'CAA':
      return (records.CAA ?? []).map((caa) => Buffer.concat([Buffer.from([caa.flags]), characterString(caa.tag), Buffer.from(caa.value)]));
  }
}

function name(text: string): Buffer {
  const labels = text.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([...labels.map((label) => characterString(label)), Buffer.from([0])]);
}

function characterString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8').subarray(0, 255);
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

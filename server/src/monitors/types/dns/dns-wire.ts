import { randomInt } from 'node:crypto';
import type { DnsRecordType } from '@vigil/proto';

/** RFC 1035 type codes of the record types a DNS monitor asks for. */
export const TYPE_CODES: Record<DnsRecordType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  CAA: 257,
};

/** The UDP payload our EDNS record offers (the DNS flag day's 1232: no fragmentation on any usual path). */
const EDNS_UDP_SIZE = 1232;
/** Compression pointers followed in one name at most: a loop in a hostile answer ends here. */
const MAX_JUMPS = 64;
/**
 * The shortest record data of each type (A and AAAA: exactly this): a record shorter than its type's fixed fields is
 * refused as malformed, not read past its end into the next record or the packet's end.
 */
const RDATA_MIN: Record<DnsRecordType, number> = { A: 4, AAAA: 16, CNAME: 1, NS: 1, PTR: 1, MX: 3, TXT: 0, SOA: 22, SRV: 7, CAA: 2 };
const RDATA_EXACT: Partial<Record<DnsRecordType, number>> = { A: 4, AAAA: 16 };

/** A DNS answer's failure, with c-ares' code for it so the checker words it the same whichever client asked. */
export class DnsAnswerError extends Error {
  constructor(
    readonly code: 'ENOTFOUND' | 'ENODATA' | 'ESERVFAIL' | 'EREFUSED' | 'EFORMERR' | 'EBADRESP',
    message: string,
  ) {
    super(message);
  }
}

const RCODE_ERRORS: Record<number, DnsAnswerError['code']> = { 1: 'EFORMERR', 2: 'ESERVFAIL', 3: 'ENOTFOUND', 5: 'EREFUSED' };

/** A question for `name` (recursion desired, with an EDNS record); answers the packet and the id it carries. */
export function encodeQuestion(name: string, type: DnsRecordType, id = randomInt(0x10000)): { id: number; packet: Buffer } {
  const labels = name.replace(/\.$/, '').split('.');
  const nameBytes = Buffer.byteLength(name);
  if (labels.some((label) => label.length === 0 || Buffer.byteLength(label) > 63) || nameBytes > 253) {
    throw new DnsAnswerError('EFORMERR', `Invalid name ${name}`);
  }
  // Header 12, the name (a length byte per label, the root's 0), type and class 4, the OPT record 11: one buffer.
  const packet = Buffer.alloc(12 + nameBytes + 2 + 4 + 11);
  packet.writeUInt16BE(id, 0);
  packet.writeUInt16BE(0x0100, 2); // RD
  packet.writeUInt16BE(1, 4); // one question
  packet.writeUInt16BE(1, 10); // one additional record: EDNS
  let at = 12;
  for (const label of labels) {
    const length = packet.write(label, at + 1);
    packet[at] = length;
    at += 1 + length;
  }
  packet[at] = 0;
  at = packet.writeUInt16BE(TYPE_CODES[type], at + 1);
  at = packet.writeUInt16BE(1, at); // IN
  // OPT: root name, type 41, class = UDP payload size, TTL 0 (extended rcode, version, flags), no options.
  packet[at] = 0;
  at = packet.writeUInt16BE(41, at + 1);
  at = packet.writeUInt16BE(EDNS_UDP_SIZE, at);
  return { id, packet: packet.subarray(0, at + 6) };
}

/** What an answer to our question says: truncated (ask again over TCP), or the records of the type asked, as text. */
export type DecodedAnswer = { truncated: true } | { truncated: false; records: string[] };

/**
 * Reads an answer to `question` (the packet we sent): null when it is not one (another id or question), so the
 * caller keeps waiting. A failing rcode, or no record of the type, rejects as c-ares would (ENOTFOUND, ENODATA, …);
 * a short or malformed answer as EBADRESP in words, never as the RangeError of a read past the packet's end.
 * Records are worded as Node's resolver returns them, so a check reads the same whichever client asked.
 */
export function decodeAnswer(packet: Buffer, question: Buffer, type: DnsRecordType): DecodedAnswer | null {
  try {
    return decode(packet, question, type);
  } catch (error) {
    // The checks below should catch every short field; a read they missed still fails in words.
    if (error instanceof RangeError) throw new DnsAnswerError('EBADRESP', 'Malformed DNS answer');
    throw error;
  }
}

function decode(packet: Buffer, question: Buffer, type: DnsRecordType): DecodedAnswer | null {
  if (packet.length < 12 || packet.readUInt16BE(0) !== question.readUInt16BE(0)) return null;
  const flags = packet.readUInt16BE(2);
  if ((flags & 0x8000) === 0) return null;
  const asked = readQuestion(question, 12);
  let offset = 12;
  const questions = packet.readUInt16BE(4);
  for (let index = 0; index < questions; index += 1) {
    const read = readQuestion(packet, offset);
    if (index === 0 && (read.name.toLowerCase() !== asked.name.toLowerCase() || read.type !== asked.type)) return null;
    offset = read.end;
  }
  if (flags & 0x0200) return { truncated: true };
  const rcode = flags & 0x000f;
  if (rcode !== 0) {
    const code = RCODE_ERRORS[rcode] ?? 'EBADRESP';
    throw new DnsAnswerError(code, `DNS server answered rcode ${rcode}`);
  }
  const records: string[] = [];
  const answers = packet.readUInt16BE(6);
  for (let index = 0; index < answers; index += 1) {
    const { end } = readName(packet, offset);
    need(packet, end + 10);
    const recordType = packet.readUInt16BE(end);
    const length = packet.readUInt16BE(end + 8);
    const start = end + 10;
    need(packet, start + length);
    if (recordType !== TYPE_CODES[type]) {
      offset = start + length;
      continue;
    }
    if (length < RDATA_MIN[type] || (RDATA_EXACT[type] !== undefined && length !== RDATA_EXACT[type])) throw malformed(type, length);
    records.push(recordText(packet.subarray(0, start + length), start, length, type));
    offset = start + length;
  }
  if (records.length === 0) throw new DnsAnswerError('ENODATA', `No ${type} record`);
  return { truncated: false, records };
}

function recordText(packet: Buffer, start: number, length: number, type: DnsRecordType): string {
  const end = start + length;
  switch (type) {
    case 'A':
      return [...packet.subarray(start, start + 4)].join('.');
    case 'AAAA':
      return ipv6Text(packet.subarray(start, start + 16));
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return readName(packet, start).name;
    case 'MX':
      return `${packet.readUInt16BE(start)} ${readName(packet, start + 2).name}`;
    case 'TXT': {
      const chunks: string[] = [];
      for (let at = start; at < end; at += 1 + packet[at]) {
        if (at + 1 + packet[at] > end) throw malformed(type, length);
        chunks.push(packet.toString('utf8', at + 1, at + 1 + packet[at]));
      }
      return chunks.join('');
    }
    case 'SOA': {
      const primary = readName(packet, start);
      const mailbox = readName(packet, primary.end);
      need(packet, mailbox.end + 20);
      const numbers = [0, 4, 8, 12, 16].map((at) => packet.readUInt32BE(mailbox.end + at));
      return [primary.name, mailbox.name, ...numbers].join(' ');
    }
    case 'SRV':
      return `${packet.readUInt16BE(start)} ${packet.readUInt16BE(start + 2)} ${packet.readUInt16BE(start + 4)} ${readName(packet, start + 6).name}`;
    case 'CAA': {
      const tagLength = packet[start + 1];
      if (2 + tagLength > length) throw malformed(type, length);
      const tag = packet.toString('latin1', start + 2, start + 2 + tagLength);
      return `${packet[start]} ${tag} ${packet.toString('utf8', start + 2 + tagLength, end)}`;
    }
  }
}

function readQuestion(packet: Buffer, offset: number): { name: string; type: number; end: number } {
  const { name, end } = readName(packet, offset);
  need(packet, end + 4);
  return { name, type: packet.readUInt16BE(end), end: end + 4 };
}

/** A name at `offset`, following compression pointers; `end` is where the record goes on after it. */
function readName(packet: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  let end = -1;
  for (let jumps = 0; ;) {
    need(packet, at + 1);
    const length = packet[at];
    if (length === 0) break;
    if ((length & 0xc0) === 0xc0) {
      need(packet, at + 2);
      if (end === -1) end = at + 2;
      if ((jumps += 1) > MAX_JUMPS) throw new DnsAnswerError('EBADRESP', 'Compression loop in the answer');
      at = packet.readUInt16BE(at) & 0x3fff;
      continue;
    }
    need(packet, at + 1 + length);
    labels.push(packet.toString('latin1', at + 1, at + 1 + length).replace(/\./g, '\\.'));
    at += 1 + length;
  }
  return { name: labels.join('.'), end: end === -1 ? at + 1 : end };
}

function malformed(type: DnsRecordType, length: number): DnsAnswerError {
  return new DnsAnswerError('EBADRESP', `Malformed DNS answer: ${type} record of ${length} bytes`);
}

function need(packet: Buffer, length: number): void {
  if (packet.length < length) throw new DnsAnswerError('EBADRESP', 'Truncated DNS answer');
}

/** An IPv6 address as inet_ntop writes it (c-ares' wording): the longest run of zero groups as `::`, IPv4 tails. */
export function ipv6Text(bytes: Buffer): string {
  const words = Array.from({ length: 8 }, (_, index) => bytes.readUInt16BE(index * 2));
  const zerosBefore = (count: number) => words.slice(0, count).every((word) => word === 0);
  if (zerosBefore(5) && (words[5] === 0xffff || (words[5] === 0 && (words[6] !== 0 || words[7] > 1)))) {
    const tail = `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
    return words[5] === 0xffff ? `::ffff:${tail}` : `::${tail}`;
  }
  let best = { start: -1, length: 0 };
  for (let index = 0; index < 8;) {
    if (words[index] !== 0) {
      index += 1;
      continue;
    }
    let end = index;
    while (end < 8 && words[end] === 0) end += 1;
    if (end - index > best.length) best = { start: index, length: end - index };
    index = end;
  }
  const hex = words.map((word) => word.toString(16));
  if (best.length < 2) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

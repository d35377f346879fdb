import { randomBytes } from 'node:crypto';

/** An NTP packet's fixed header (RFC 5905 7.3); extensions and MACs after it are ignored. */
export const NTP_PACKET_BYTES = 48;
/** Seconds from the NTP era (1900) to the Unix epoch (1970). */
const NTP_EPOCH_OFFSET_S = 2_208_988_800;
const MODE_CLIENT = 3;
const MODE_SERVER = 4;
const VERSION = 4;

/** A client request; its transmit timestamp is random (RFC 9109's advice): the server copies it back as our nonce. */
export function ntpRequest(): { packet: Buffer; nonce: Buffer } {
  const packet = Buffer.alloc(NTP_PACKET_BYTES);
  packet[0] = (VERSION << 3) | MODE_CLIENT;
  const nonce = randomBytes(8);
  nonce.copy(packet, 40);
  return { packet, nonce };
}

/** What a server's reply says. Times are Unix milliseconds. */
export interface NtpReply {
  leap: number;
  stratum: number;
  /** The reference id: four ASCII letters at stratum 0–1 (the kiss code at 0, `GPS` at 1), an address above. */
  refId: string;
  /** Milliseconds. */
  rootDispersion: number;
  /** When the server received our request and sent its reply (T2, T3). */
  received: number;
  transmitted: number;
}

/** The reply to the request carrying `nonce`; null for any other datagram (another request's, not a server's). */
export function readNtpReply(packet: Buffer, nonce: Buffer): NtpReply | null {
  if (packet.length < NTP_PACKET_BYTES) return null;
  if ((packet[0] & 0x07) !== MODE_SERVER || !packet.subarray(24, 32).equals(nonce)) return null;
  const stratum = packet[1];
  return {
    leap: packet[0] >> 6,
    stratum,
    refId:
      stratum <= 1
        ? packet
            .toString('latin1', 12, 16)
            .replace(/[^\x20-\x7e]/g, '')
            .trim()
        : [...packet.subarray(12, 16)].join('.'),
    rootDispersion: (packet.readUInt32BE(8) / 65_536) * 1000,
    received: timestamp(packet, 32),
    transmitted: timestamp(packet, 40),
  };
}

/** An NTP timestamp (seconds since 1900, 32.32 fixed point) as Unix milliseconds; 0 stays 0 (none). */
function timestamp(packet: Buffer, at: number): number {
  const seconds = packet.readUInt32BE(at);
  const fraction = packet.readUInt32BE(at + 4);
  if (seconds === 0 && fraction === 0) return 0;
  return (seconds - NTP_EPOCH_OFFSET_S) * 1000 + (fraction * 1000) / 2 ** 32;
}

/** Unix milliseconds as an NTP timestamp (for fakes). */
export function writeNtpTimestamp(packet: Buffer, at: number, unixMs: number): void {
  const seconds = Math.floor(unixMs / 1000);
  packet.writeUInt32BE((seconds + NTP_EPOCH_OFFSET_S) >>> 0, at);
  packet.writeUInt32BE(Math.floor(((unixMs - seconds * 1000) / 1000) * 2 ** 32) >>> 0, at + 4);
}

/**
 * The clock offset and round-trip delay (RFC 5905 8) from our send and receive times (T1, T4) and the server's
 * (T2, T3), in milliseconds: offset = ((T2 − T1) + (T3 − T4)) / 2, delay = (T4 − T1) − (T3 − T2).
 */
export function clockOffset(sent: number, reply: NtpReply, arrived: number): { offset: number; delay: number } {
  return {
    offset: (reply.received - sent + (reply.transmitted - arrived)) / 2,
    delay: arrived - sent - (reply.transmitted - reply.received),
  };
}

/** The kiss codes (RFC 5905 7.4) a monitor names; others are shown as sent. */
export const KISS_CODES: Record<string, string> = {
  DENY: 'access denied',
  RSTR: 'access restricted',
  RATE: 'rate exceeded, asking too often',
  INIT: 'not yet synchronised',
  STEP: 'clock being stepped',
};

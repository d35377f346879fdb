import * as snmp from 'net-snmp';
import { describeFailure, ProbeFailure } from '../../checkers/failure';

/** Text of a value kept at most, as for any observed answer. */
const VALUE_MAX = 64 * 1024;

/**
 * A GET's varbind as the `value` source reads it: numbers as decimal text (Counter64 too), printable octet strings
 * as text and other bytes as colon-separated hex (as `snmpget` shows a Hex-STRING). The "no such" answers of
 * SNMPv2c/v3 are failures named after them, since they mean the OID is not there.
 */
export function varbindText(oid: string, varbind: snmp.Varbind | undefined): string | null {
  if (!varbind) throw new ProbeFailure(`The SNMP agent answered without a value for ${oid}`);
  switch (varbind.type) {
    case snmp.ObjectType.NoSuchObject:
      throw new ProbeFailure(`noSuchObject: the agent has no object ${oid}`);
    case snmp.ObjectType.NoSuchInstance:
      throw new ProbeFailure(`noSuchInstance: the agent has no instance ${oid} (a scalar ends in .0)`);
    case snmp.ObjectType.EndOfMibView:
      throw new ProbeFailure(`endOfMibView: nothing at or after ${oid}`);
    case snmp.ObjectType.Null:
      return null;
    case snmp.ObjectType.Counter64:
      return bigUnsigned(varbind.value);
    case snmp.ObjectType.OctetString:
      return octets(varbind.value);
    case snmp.ObjectType.Opaque:
      return hex(varbind.value);
    default:
      return String(varbind.value).slice(0, VALUE_MAX);
  }
}

function bigUnsigned(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return value.toString();
  if (!Buffer.isBuffer(value) || value.length === 0) return '0';
  return BigInt(`0x${value.toString('hex')}`).toString();
}

/** UTF-8 text when the bytes are that and printable (tabs and line breaks allowed), hex otherwise. */
function octets(value: unknown): string {
  if (!Buffer.isBuffer(value)) return String(value).slice(0, VALUE_MAX);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(value.subarray(0, VALUE_MAX));
  const printable = !text.includes('\uFFFD') && !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text);
  return printable ? text : hex(value);
}

function hex(value: unknown): string {
  if (!Buffer.isBuffer(value)) return String(value).slice(0, VALUE_MAX);
  // Three characters a byte.
  return [...value.subarray(0, Math.floor(VALUE_MAX / 3))].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/** net-snmp's errors in the words of the check history; the rest as every socket checker words them. */
export function describeSnmpFailure(error: unknown, timeoutSeconds: number): string {
  const failure = (error ?? {}) as { name?: string; message?: string; status?: number };
  switch (failure.name) {
    case 'RequestTimedOutError':
    case 'TimeoutError':
      // An agent drops a request whose community or v3 user it does not know: silence is all a check sees.
      return `Timeout after ${timeoutSeconds} s: no SNMP answer (a wrong community or v3 user is dropped silently)`;
    case 'RequestFailedError':
      // SNMPv1 says "noSuchName" through the PDU's error status.
      return `SNMP error: ${failure.message ?? 'request failed'}`;
    case 'ResponseInvalidError':
      return `SNMP answer refused: ${failure.message ?? 'invalid answer'}`;
    case 'RequestInvalidError':
      return `SNMP request invalid: ${failure.message ?? 'invalid request'}`;
    default:
      return describeFailure(error, timeoutSeconds);
  }
}

import { isIP } from 'node:net';
import { MONITOR_TYPE_LIMITS as L } from '@vigil/proto';

const HOST_LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;

/** A host name (labels of letters, digits, `-`, `_`) or an IPv4/IPv6 address, at most 253 characters. */
export function isHostname(value: unknown): boolean {
  if (typeof value !== 'string' || value === '' || value.length > L.hostnameMax) return false;
  if (isIP(value)) return true;
  return value
    .replace(/\.$/, '')
    .split('.')
    .every((label) => HOST_LABEL.test(label));
}

/** `host`, `host:port`, an IPv6 address, or `[IPv6]:port`. */
export function parseHostPort(value: string): { host: string; port: number | null } | null {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  const plain = /^([^:[\]]+)(?::(\d{1,5}))?$/.exec(value);
  const [host, port] = bracketed ? [bracketed[1], bracketed[2]] : plain ? [plain[1], plain[2]] : isIP(value) === 6 ? [value] : [];
  if (host === undefined || !isHostname(host) || (bracketed && isIP(host) !== 6)) return null;
  const number = port === undefined ? null : Number(port);
  if (number !== null && (number < L.portMin || number > L.portMax)) return null;
  return { host, port: number };
}

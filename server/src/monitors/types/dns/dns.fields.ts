import { parseHostPort } from '../../checkers/hostname';
import type { FieldRules } from '../field-rules';

/** The server to ask: `host`, `host:port`, an IPv6 address or `[IPv6]:port` (the spec bounds its length). */
export const dnsFieldRules: FieldRules = {
  dnsServer: (value) => (typeof value === 'string' && parseHostPort(value) !== null ? null : 'monitors.dnsServerInvalid'),
};

import { hostPort, settingText, type MonitorTypeSpec } from '../monitor-type-specs';

/** Arcs in an OID at most (RFC 2578 caps OIDs at 128 sub-identifiers). */
const OID_ARCS_MAX = 128;
/** A sub-identifier is an unsigned 32-bit number. */
const ARC_MAX = 4_294_967_295;

/** A numeric OID (`1.3.6.1.2.1.1.3.0`): at least two arcs, the first 0–2, no leading zeros, each within 32 bits. */
export function isOid(text: string): boolean {
  if (!/^[0-2](?:\.(?:0|[1-9]\d{0,9}))+$/.test(text)) return false;
  const arcs = text.split('.');
  return arcs.length <= OID_ARCS_MAX && arcs.every((arc) => Number(arc) <= ARC_MAX);
}

export const SNMP_VERSIONS = ['1', '2c', '3'] as const;
/** net-snmp's names for the USM protocols (`snmp.AuthProtocols`, `snmp.PrivProtocols`). */
export const SNMP_AUTH_PROTOCOLS = ['none', 'md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export const SNMP_PRIV_PROTOCOLS = ['none', 'des', 'aes', 'aes256b', 'aes256r'] as const;

/**
 * An SNMP GET of one OID (v1, v2c with a community, v3 with a USM user); the value it returns is the `value` source,
 * numbers and text alike as text. Field names follow Uptime Kuma 2.x (`EditMonitor.vue`, `monitor-types/snmp.js`) so
 * an import maps them one to one: `hostname`, `port` (161), `snmpVersion` ('1' | '2c' | '3'), `snmpOid`,
 * `radiusPassword` (Kuma keeps the community string in that column) and `snmpV3Username`. Kuma's v3 is noAuthNoPriv
 * only; the auth/priv fields (`snmpV3AuthProtocol`, `snmpV3AuthKey`, `snmpV3PrivProtocol`, `snmpV3PrivKey`) are ours.
 * Kuma's `jsonPath` / `jsonPathOperator` / `expectedValue` become one `value` assertion (`$` with `==` is `value eq`).
 */
export const SNMP = {
  name: { 'en-US': 'SNMP', 'zh-CN': 'SNMP' },
  fields: [
    { name: 'hostname', kind: 'text', required: true, column: 'hostname', placeholder: 'switch.lan' },
    { name: 'port', kind: 'number', column: 'port', default: 161, min: 1, max: 65_535 },
    { name: 'snmpVersion', kind: 'select', options: SNMP_VERSIONS, default: '2c' },
    {
      name: 'snmpOid',
      kind: 'text',
      required: true,
      help: true,
      placeholder: '1.3.6.1.2.1.1.3.0',
      valid: isOid,
      codes: { invalid: 'monitors.snmpOidInvalid' },
    },
    // The community string (v1/v2c), in Kuma's column for it.
    { name: 'radiusPassword', kind: 'secret', help: true, max: 255, placeholder: 'public' },
    { name: 'snmpV3Username', kind: 'text', max: 32 },
    { name: 'snmpV3AuthProtocol', kind: 'select', options: SNMP_AUTH_PROTOCOLS, default: 'none' },
    // USM derives keys from passphrases of at least 8 characters (RFC 3414, 11.2).
    { name: 'snmpV3AuthKey', kind: 'secret', min: 8, max: 255 },
    { name: 'snmpV3PrivProtocol', kind: 'select', options: SNMP_PRIV_PROTOCOLS, default: 'none' },
    { name: 'snmpV3PrivKey', kind: 'secret', min: 8, max: 255 },
  ],
  sources: ['responseTime', 'value'],
  target: (parts) => `${hostPort(parts.hostname, parts.port)} ${settingText(parts, 'snmpOid')}`.trim(),
  icon: 'router',
  check: (config) => {
    if (config.snmpVersion !== '3') {
      return config.radiusPassword ? null : { field: 'radiusPassword', code: 'notifications.fieldRequired' };
    }
    if (!config.snmpV3Username) return { field: 'snmpV3Username', code: 'notifications.fieldRequired' };
    const auth = config.snmpV3AuthProtocol !== 'none';
    if (auth && !config.snmpV3AuthKey) return { field: 'snmpV3AuthKey', code: 'notifications.fieldRequired' };
    if (config.snmpV3PrivProtocol === 'none') return null;
    if (!auth) return { field: 'snmpV3PrivProtocol', code: 'monitors.snmpPrivNeedsAuth' };
    return config.snmpV3PrivKey ? null : { field: 'snmpV3PrivKey', code: 'notifications.fieldRequired' };
  },
} as const satisfies MonitorTypeSpec;

import { hostPort, type MonitorTypeSpec } from '../monitor-type-specs';

/**
 * A time server asked once over UDP (SNTP, RFC 4330): its clock offset, stratum and root dispersion are sources, so
 * the thresholds Uptime Kuma keeps as fields (`ntpTimeOffsetThreshold`, …) are assertions here.
 */
export const NTP = {
  name: { 'en-US': 'NTP', 'zh-CN': 'NTP' },
  fields: [
    { name: 'hostname', kind: 'text', required: true, column: 'hostname' },
    { name: 'port', kind: 'number', default: 123, min: 1, max: 65_535, column: 'port' },
  ],
  sources: ['responseTime', 'offset', 'stratum', 'rootDispersion'],
  target: (parts) => hostPort(parts.hostname, parts.port),
  icon: 'clock',
} as const satisfies MonitorTypeSpec;

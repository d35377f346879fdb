import { hostPort, type MonitorTypeSpec } from '../monitor-type-specs';

/**
 * A RADIUS Access-Request (PAP) with a user, password and the shared secret: Access-Accept (or an Access-Challenge,
 * as Kuma counts it) is up, Access-Reject is down. Field names are Uptime Kuma's (`radiusUsername`,
 * `radiusPassword`, `radiusSecret`, `radiusCalledStationId`, `radiusCallingStationId`, port 1812) so an import maps
 * them one to one.
 */
export const RADIUS = {
  name: { 'en-US': 'RADIUS', 'zh-CN': 'RADIUS' },
  fields: [
    { name: 'hostname', kind: 'text', required: true, column: 'hostname', placeholder: 'radius.lan' },
    { name: 'port', kind: 'number', column: 'port', default: 1812, min: 1, max: 65_535 },
    { name: 'radiusUsername', kind: 'text', required: true, max: 253 },
    // PAP hides at most 128 bytes of password (RFC 2865, 5.2).
    { name: 'radiusPassword', kind: 'secret', required: true, max: 128 },
    { name: 'radiusSecret', kind: 'secret', required: true, help: true, max: 255 },
    { name: 'radiusCalledStationId', kind: 'text', help: true, max: 253 },
    { name: 'radiusCallingStationId', kind: 'text', help: true, max: 253 },
  ],
  sources: ['responseTime'],
  target: (parts) => hostPort(parts.hostname, parts.port),
  icon: 'lock',
} as const satisfies MonitorTypeSpec;

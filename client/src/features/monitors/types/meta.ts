import {
  IconApi,
  IconArrowsExchange,
  IconBrandMysql,
  IconCertificate,
  IconDatabase,
  IconHeartbeat,
  IconPlugConnected,
  IconRadar2,
  IconServerBolt,
  IconSitemap,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';
import { MONITOR_TYPE_DEFAULTS, type MonitorType, targetOf, type MonitorTypeReadFields } from '@vigil/proto';

/** The icon of each type, shown on the type picker, badges, list rows and wall tiles. */
export const TYPE_ICONS: { [T in MonitorType]: Icon } = {
  http: IconWorldWww,
  tcp: IconPlugConnected,
  ping: IconRadar2,
  dns: IconSitemap,
  tls: IconCertificate,
  push: IconHeartbeat,
  websocket: IconArrowsExchange,
  grpc: IconApi,
  postgres: IconDatabase,
  mysql: IconBrandMysql,
  redis: IconServerBolt,
};

/** What a monitor read needs to show its target. */
export type TargetFields = Pick<MonitorTypeReadFields, 'type' | 'hostname' | 'port' | 'dns_record_type'> & { url?: string | null };

/**
 * The target as people read it: the URL for HTTP and WebSocket, `host:port`, `example.com MX`, or null for a push
 * monitor (its target is the heartbeat, which the caller words). Built on proto's `targetOf`, minus the scheme.
 */
export function readableTarget(monitor: TargetFields): string | null {
  switch (monitor.type) {
    case 'push':
      return null;
    case 'http':
    case 'websocket':
      return monitor.url ?? '';
    case 'dns':
      return `${monitor.hostname ?? ''} ${monitor.dns_record_type ?? MONITOR_TYPE_DEFAULTS.dnsRecordType}`;
    case 'postgres':
    case 'mysql':
    case 'redis':
      // The server reads hostname and port out of the (secret) connection string; the read `url` says the same.
      return withoutScheme(monitor.hostname ? targetOf(monitor) : (monitor.url ?? ''));
    default:
      return withoutScheme(targetOf(monitor));
  }
}

function withoutScheme(target: string): string {
  return target.replace(/^[a-z]+:\/\//, '');
}

export type CertificateColor = 'red' | 'orange' | 'green';

/**
 * The colour of a certificate's days remaining against the monitor's alert thresholds: red at or below the smallest
 * (and once expired), orange at or below the largest, green above. No thresholds: the default ones.
 */
export function certificateColor(daysRemaining: number, thresholds: readonly number[]): CertificateColor {
  const list = thresholds.length > 0 ? thresholds : MONITOR_TYPE_DEFAULTS.certExpiryDays;
  if (daysRemaining <= Math.min(...list)) return 'red';
  if (daysRemaining <= Math.max(...list)) return 'orange';
  return 'green';
}

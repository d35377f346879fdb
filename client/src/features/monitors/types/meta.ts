import {
  IconApi,
  IconArrowsExchange,
  IconBrandMysql,
  IconCertificate,
  IconDatabase,
  IconFolders,
  IconHeartbeat,
  IconPlugConnected,
  IconRadar2,
  IconServerBolt,
  IconSitemap,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';
import { MONITOR_TYPE_DEFAULTS, type MonitorType } from '@vigil/proto';

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
  group: IconFolders,
};

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

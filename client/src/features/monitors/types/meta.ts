import {
  IconActivity,
  IconApi,
  IconArrowsExchange,
  IconArrowsShuffle,
  IconBox,
  IconBrandMysql,
  IconBroadcast,
  IconBrowser,
  IconCertificate,
  IconClock,
  IconDatabase,
  IconFolders,
  IconHandClick,
  IconHeartbeat,
  IconLock,
  IconMail,
  IconPlugConnected,
  IconRadar2,
  IconRouter,
  IconServerBolt,
  IconSitemap,
  IconTopologyStar3,
  IconWorldCheck,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';
import { MONITOR_TYPE_DEFAULTS, MONITOR_TYPES, typeSpec, type MonitorType } from '@vigil/proto';

/**
 * The pictures of the specs' icon keys (MonitorTypeSpec.icon, Tabler's kebab names), imported one by one so the
 * bundle carries only these; a spec naming a key missing here shows the generic activity icon (a test lists them).
 */
export const ICONS_BY_KEY: Readonly<Record<string, Icon>> = {
  'world-www': IconWorldWww,
  'plug-connected': IconPlugConnected,
  radar: IconRadar2,
  sitemap: IconSitemap,
  certificate: IconCertificate,
  heartbeat: IconHeartbeat,
  'arrows-exchange': IconArrowsExchange,
  api: IconApi,
  database: IconDatabase,
  'brand-mysql': IconBrandMysql,
  'server-bolt': IconServerBolt,
  folders: IconFolders,
  'hand-click': IconHandClick,
  broadcast: IconBroadcast,
  'arrows-shuffle': IconArrowsShuffle,
  'topology-star-3': IconTopologyStar3,
  mail: IconMail,
  router: IconRouter,
  clock: IconClock,
  lock: IconLock,
  'world-check': IconWorldCheck,
  browser: IconBrowser,
  box: IconBox,
};

/** The icon of each type, shown on the type picker, badges, list rows and wall tiles. */
export const TYPE_ICONS = Object.fromEntries(MONITOR_TYPES.map((type) => [type, ICONS_BY_KEY[typeSpec(type).icon] ?? IconActivity])) as {
  [T in MonitorType]: Icon;
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

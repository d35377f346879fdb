/**
 * Kuma 1.x's JSON backup (Settings → Backup → Export, removed in 2.0): `{ version, notificationList, monitorList }`,
 * the monitors as Kuma's UI holds them (camelCase). Read into the database's row shape, so one mapping serves both.
 */
import { emptyKumaData, KumaFileError, type KumaData, type KumaRow } from './kuma-file';

/** UI names whose column is not their snake_case form. */
const RENAMED: Record<string, string> = { accepted_statuscodes: 'accepted_statuscodes_json', proxyId: 'proxy_id' };
/** Derived or per-session fields of the UI's monitor, not columns. */
const DROPPED = new Set([
  'notificationIDList',
  'tags',
  'pathName',
  'childrenIDs',
  'forceInactive',
  'maintenance',
  'screenshot',
  'includeSensitiveData',
]);

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function monitorRow(monitor: Record<string, unknown>): KumaRow {
  const row: KumaRow = {};
  for (const [key, value] of Object.entries(monitor)) {
    if (DROPPED.has(key)) continue;
    const column = RENAMED[key] ?? snake(key);
    row[column] = typeof value === 'boolean' ? Number(value) : column === 'accepted_statuscodes_json' ? JSON.stringify(value) : value;
  }
  return row;
}

export function readKumaBackup(text: string): KumaData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KumaFileError('notKuma');
  }
  if (!isObject(parsed) || !Array.isArray(parsed.monitorList) || !Array.isArray(parsed.notificationList)) {
    throw new KumaFileError('notKuma');
  }
  if (typeof parsed.version !== 'string' || !/^1\.\d+\.\d+/.test(parsed.version)) throw new KumaFileError('unknownVersion');
  const data = emptyKumaData('kuma-backup');
  for (const monitor of parsed.monitorList.filter(isObject)) {
    data.monitors.push(monitorRow(monitor));
    const links = isObject(monitor.notificationIDList) ? monitor.notificationIDList : {};
    for (const [id, on] of Object.entries(links)) {
      if (on) data.monitorNotifications.push({ monitor_id: monitor.id, notification_id: Number(id) });
    }
    for (const tag of Array.isArray(monitor.tags) ? monitor.tags.filter(isObject) : []) {
      data.monitorTags.push({ monitor_id: monitor.id, name: tag.name, value: tag.value });
    }
  }
  for (const notification of parsed.notificationList.filter(isObject)) {
    data.notifications.push({ ...notification, is_default: notification.isDefault ? 1 : 0, active: notification.active === false ? 0 : 1 });
  }
  return data;
}

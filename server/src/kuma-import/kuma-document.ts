/**
 * A Kuma file's rows → one configuration document (applied like any other: plan, then one transaction), what was
 * left out and why, and what the document does not carry: incidents and heartbeat history.
 */
import {
  CONFIG_DOCUMENT_VERSION,
  PAGE_SLUG_PATTERN,
  RESERVED_PAGE_SLUGS,
  type ConfigChannel,
  type ConfigDocument,
  type ConfigMaintenance,
  type ConfigMonitor,
  type ConfigStatusPage,
} from '@vigil/proto';
import { mapChannel } from './kuma-channels';
import type { KumaData, KumaRow } from './kuma-file';
import { kumaTags, mapMonitor } from './kuma-monitors';
import { mapIncident, mapMaintenance, mapStatusPage, type KumaIncident, type MaintenanceRefs } from './kuma-schedules';
import { bool, int, text, type KumaSkipped } from './kuma-values';

/** A setting that came along changed (clamped, dropped), per item. */
export interface KumaNote {
  kind: KumaSkipped['kind'];
  name: string;
  notes: string[];
}

export interface KumaImport {
  document: ConfigDocument;
  skipped: KumaSkipped[];
  notes: KumaNote[];
  incidents: KumaIncident[];
  /** Kuma monitor id → our key, for the history. */
  monitorKeys: Map<number, string>;
  history: Pick<KumaData, 'heartbeats' | 'statDaily'>;
}

const byMonitor = (rows: KumaRow[], field: string) => {
  const map = new Map<number, number[]>();
  for (const row of rows) {
    const id = Number(row.monitor_id);
    map.set(id, [...(map.get(id) ?? []), Number(row[field])]);
  }
  return map;
};

/** Kuma's own slugs are free-form; ours may not take the app's paths (`default` is the `/status` page in both). */
export function pageSlug(slug: string): string {
  const lower = slug.toLowerCase();
  if (lower === 'default') return lower;
  const safe = RESERVED_PAGE_SLUGS.includes(lower as (typeof RESERVED_PAGE_SLUGS)[number]) ? `kuma-${lower}` : lower;
  return PAGE_SLUG_PATTERN.test(safe) ? safe : `kuma-${safe.replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '')}`.slice(0, 64);
}

/**
 * `takenNames`: names of monitors Vigil holds now, with their keys (a name under another key is a duplicate);
 * `refused`: Kuma monitor ids our monitor rules refuse, with the field (kuma-validation.ts).
 */
export function buildKumaImport(data: KumaData, takenNames: Map<string, string>, refused = new Map<number, string>()): KumaImport {
  const skipped: KumaSkipped[] = [];
  const notes: KumaNote[] = [];
  const note = (kind: KumaNote['kind'], name: string, ...lines: string[]) => {
    const entry = notes.find((item) => item.kind === kind && item.name === name);
    if (entry) entry.notes.push(...lines);
    else notes.push({ kind, name, notes: lines });
  };
  const names = new Map(takenNames);
  const monitors: ConfigMonitor[] = [];
  const monitorKeys = new Map<number, string>();
  const refs: MaintenanceRefs = { monitors: new Map(), pageSlugs: new Map() };

  for (const row of data.monitors) {
    const name = text(row.name) ?? `Kuma ${String(row.id)}`;
    const mapped = mapMonitor(row);
    if (mapped.skip) {
      skipped.push({ kind: 'monitor', name, reason: mapped.skip.reason, detail: mapped.skip.detail });
      continue;
    }
    const monitor = mapped.monitor!;
    if (refused.has(Number(row.id))) {
      skipped.push({ kind: 'monitor', name, reason: 'invalid', detail: refused.get(Number(row.id)) });
      continue;
    }
    const holder = names.get(monitor.name);
    if (holder !== undefined && holder !== monitor.key) {
      skipped.push({ kind: 'monitor', name, reason: 'duplicateName' });
      continue;
    }
    names.set(monitor.name, monitor.key);
    monitors.push(monitor);
    monitorKeys.set(Number(row.id), monitor.key);
    refs.monitors.set(Number(row.id), { key: monitor.key, group: monitor.type === 'group' });
    if (mapped.notes.length) note('monitor', name, ...mapped.notes);
  }

  const channels: ConfigChannel[] = [];
  const channelKeys = new Map<number, string>();
  const channelNames = new Map<number, string>();
  for (const row of data.notifications) {
    const mapped = mapChannel(row);
    channelNames.set(Number(row.id), text(row.name) ?? String(row.id));
    if (mapped.skip) {
      skipped.push({ kind: 'channel', name: text(row.name) ?? String(row.id), reason: mapped.skip.reason, detail: mapped.skip.detail });
      continue;
    }
    channels.push(mapped.channel!);
    channelKeys.set(Number(row.id), mapped.channel!.key);
  }

  // Links: a monitor's own channel list (a Kuma monitor with none alerts nobody, so it overrides the defaults).
  const links = byMonitor(data.monitorNotifications, 'notification_id');
  const rowsById = new Map(data.monitors.map((row) => [Number(row.id), row]));
  for (const monitor of monitors) {
    const id = Number(monitor.key.slice('kuma-'.length));
    const row = rowsById.get(id)!;
    const parent = int(row.parent);
    // Left out when none: a document's absent field keeps what is stored, as an export writes a top-level monitor.
    if (parent !== undefined && monitorKeys.has(parent)) monitor.parent = monitorKeys.get(parent);
    else if (parent !== undefined) note('monitor', monitor.name, 'group not imported');
    const own = links.get(id) ?? [];
    for (const channelId of own.filter((channel) => !channelKeys.has(channel))) {
      skipped.push({ kind: 'link', name: `${monitor.name} → ${channelNames.get(channelId) ?? channelId}`, reason: 'unknownChannel' });
    }
    const resend = int(row.resend_interval) ?? 0;
    monitor.notifications = {
      enabled: true,
      onDown: true,
      onRecovery: true,
      onCertificateExpiry: row.expiry_notification === undefined ? true : bool(row.expiry_notification),
      onDegraded: false,
      // Kuma resends every N failed beats; ours reminds every M minutes.
      reminderMinutes: resend > 0 ? Math.max(1, Math.round((resend * (monitor.interval ?? 60)) / 60)) : null,
      escalation: [],
      overrideGlobal: true,
      channels: own.flatMap((channel) => channelKeys.get(channel) ?? []),
    };
  }
  const tags = byMonitor(
    data.monitorTags.map((tag, i) => ({ ...tag, index: i })),
    'index',
  );
  for (const [id, indexes] of tags) {
    const key = monitorKeys.get(id);
    const monitor = monitors.find((m) => m.key === key);
    if (!monitor) continue;
    const changes: string[] = [];
    const list = kumaTags(
      indexes.map((i) => data.monitorTags[i]),
      changes,
    );
    if (list.length) monitor.tags = list;
    if (changes.length) note('monitor', monitor.name, ...changes);
  }

  const statusPages: ConfigStatusPage[] = [];
  for (const page of data.statusPages) {
    const slug = pageSlug(String(page.slug));
    refs.pageSlugs.set(Number(page.id), slug);
    const sections = data.pageGroups
      .filter((group) => Number(group.status_page_id) === Number(page.id))
      .map((group) => ({
        name: text(group.name) ?? '',
        keys: data.pageGroupMonitors
          .filter((item) => Number(item.group_id) === Number(group.id))
          .flatMap((item) => monitorKeys.get(Number(item.monitor_id)) ?? []),
      }));
    statusPages.push(mapStatusPage(page, slug, sections));
    if (slug !== String(page.slug)) note('statusPage', String(page.title), `slug ${String(page.slug)} → ${slug}`);
  }

  const maintenance: ConfigMaintenance[] = [];
  const targets = byMonitor(
    data.monitorMaintenance.map((r) => ({ monitor_id: r.maintenance_id, id: r.monitor_id })),
    'id',
  );
  const pages = byMonitor(
    data.maintenancePages.map((r) => ({ monitor_id: r.maintenance_id, id: r.status_page_id })),
    'id',
  );
  for (const row of data.maintenance) {
    const itemNotes: string[] = [];
    const mapped = mapMaintenance(row, targets.get(Number(row.id)) ?? [], pages.get(Number(row.id)) ?? [], refs, itemNotes);
    const title = text(row.title) ?? String(row.id);
    const scope = mapped?.scope;
    if (!mapped) skipped.push({ kind: 'maintenance', name: title, reason: 'unsupportedValue', detail: String(row.strategy) });
    // Kuma keeps a window that covers nothing (it does nothing there either); ours must cover something.
    else if (!scope?.monitors?.length && !scope?.groups?.length)
      skipped.push({ kind: 'maintenance', name: title, reason: 'invalid', detail: 'covers no monitor' });
    else maintenance.push(mapped);
    if (itemNotes.length) note('maintenance', title, ...itemNotes);
  }

  const incidents = data.incidents.flatMap((row) => {
    const slug = refs.pageSlugs.get(Number(row.status_page_id));
    if (slug) return [mapIncident(row, slug)];
    skipped.push({ kind: 'incident', name: text(row.title) ?? String(row.id), reason: 'invalid', detail: 'no status page' });
    return [];
  });

  return {
    document: { version: CONFIG_DOCUMENT_VERSION, monitors, channels, maintenance, statusPages },
    skipped,
    notes,
    incidents,
    monitorKeys,
    history: { heartbeats: data.heartbeats, statDaily: data.statDaily },
  };
}

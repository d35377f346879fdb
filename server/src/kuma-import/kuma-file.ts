/**
 * What an Uptime Kuma file holds, once read: its rows by table with Kuma's column names (snake_case), the same for a
 * `kuma.db` of 1.23 or 2.x and for 1.x's JSON backup, so the mapping reads one shape.
 */
import type { KumaHistoryOption, KumaSourceKind } from '@vigil/proto';

export type KumaSource = KumaSourceKind;
export type KumaRow = Record<string, unknown>;

/** `history`: none, raw heartbeats, or daily stats (2.x's `stat_daily`; from heartbeats on 1.23). */
export type KumaHistoryMode = KumaHistoryOption;

/** The heartbeats read per monitor at most (newest first), so a year of 20-second beats stays bounded. */
export const KUMA_HEARTBEATS_PER_MONITOR = 10_000;

/** Heartbeats per message from the reader's worker: one chunk deserialises in ~10 ms on the main thread. */
export const KUMA_HEARTBEAT_CHUNK = 10_000;

export interface KumaData {
  source: KumaSource;
  monitors: KumaRow[];
  notifications: KumaRow[];
  /** monitor_id, notification_id. */
  monitorNotifications: KumaRow[];
  /** tag name and value per monitor: monitor_id, name, value. */
  monitorTags: KumaRow[];
  maintenance: KumaRow[];
  monitorMaintenance: KumaRow[];
  maintenancePages: KumaRow[];
  statusPages: KumaRow[];
  /** Kuma's `group` table: a status page's sections. */
  pageGroups: KumaRow[];
  pageGroupMonitors: KumaRow[];
  incidents: KumaRow[];
  /** monitor_id, status (0 down, 1 up, 2 pending, 3 maintenance), time (UTC text), ping, msg. */
  heartbeats: KumaRow[];
  /** monitor_id, timestamp (seconds, UTC midnight), up, down, ping. */
  statDaily: KumaRow[];
}

/** Why a file was refused; each code has one line in the messages (`kumaImport.<code>`). */
export type KumaFileProblem = 'notKuma' | 'truncated' | 'encrypted' | 'unknownVersion' | 'empty';

export class KumaFileError extends Error {
  constructor(readonly problem: KumaFileProblem) {
    super(problem);
  }
}

export const emptyKumaData = (source: KumaSource): KumaData => ({
  source,
  monitors: [],
  notifications: [],
  monitorNotifications: [],
  monitorTags: [],
  maintenance: [],
  monitorMaintenance: [],
  maintenancePages: [],
  statusPages: [],
  pageGroups: [],
  pageGroupMonitors: [],
  incidents: [],
  heartbeats: [],
  statDaily: [],
});

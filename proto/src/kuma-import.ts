/**
 * Import from Uptime Kuma (`POST /api/import/uptime-kuma`): a `kuma.db` (1.23 or 2.x) or a 1.x JSON backup becomes a
 * configuration document (config-document.ts) applied in one transaction, plus incidents and, optionally, history.
 */
import type { ConfigKind, PlanAction } from './config-document';

/** The upload's limit: a Kuma database of a few hundred monitors with a year of heartbeats fits. */
export const KUMA_IMPORT_MAX_BYTES = 50 * 1024 * 1024;

export const KUMA_HISTORY_OPTIONS = ['none', 'raw', 'daily'] as const;
export type KumaHistoryOption = (typeof KUMA_HISTORY_OPTIONS)[number];

export type KumaSourceKind = 'kuma-1.23' | 'kuma-2' | 'kuma-backup';

/** Why an item was left out. */
export type KumaSkipReasonCode =
  'unsupportedType' | 'duplicateName' | 'unknownChannel' | 'unsupportedChannel' | 'needsAgent' | 'unsupportedValue' | 'invalid';

export type KumaItemKind = 'monitor' | 'channel' | 'maintenance' | 'statusPage' | 'incident' | 'link';

export interface KumaImportItem {
  kind: ConfigKind;
  key: string;
  name: string;
  action: PlanAction;
  /** For an update: the fields that change. */
  fields?: string[];
}

export interface KumaImportSkipped {
  kind: KumaItemKind;
  name: string;
  reason: KumaSkipReasonCode;
  /** What exactly: the type, the expression, the setting (never a secret). */
  detail?: string;
}

/** Settings that came along changed (clamped to our limits, narrowed, a tag cut) or had no place. */
export interface KumaImportNote {
  kind: KumaItemKind;
  name: string;
  notes: string[];
}

export interface KumaImportReport {
  source: KumaSourceKind;
  dryRun: boolean;
  items: KumaImportItem[];
  counts: Record<PlanAction, number>;
  skipped: KumaImportSkipped[];
  notes: KumaImportNote[];
  incidents: { created: number; existing: number };
  /** Monitors given history, checks and days stored (0 on a dry run or a re-run: only new monitors get history). */
  history: { monitors: number; checks: number; days: number };
}

export interface KumaImportResponse {
  success: true;
  message?: string;
  report: KumaImportReport;
}

export const KUMA_IMPORT_PHASES = ['reading', 'mapping', 'planning', 'applying', 'done', 'failed'] as const;
export type KumaImportPhase = (typeof KUMA_IMPORT_PHASES)[number];

/** `GET /api/import/uptime-kuma/jobs/{jobId}`: where an import sent with `?jobId=` stands. */
export interface KumaImportProgress {
  success: true;
  phase: KumaImportPhase;
  /** 0–100. */
  percent: number;
}

/** A job id the client picks (letters, digits, `-`), so it can ask for progress while its upload runs. */
export const KUMA_JOB_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

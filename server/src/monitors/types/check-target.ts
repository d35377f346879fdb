import { MONITOR_TYPE_DEFAULTS as D, type AddedMonitorType } from '@vigil/proto';
import type { AddedCheckTarget, CheckTarget } from '../checkers/checker';
import type { MonitorRow } from '../monitor.types';

/** The stored settings a check reads. */
export type TargetRow = Pick<
  MonitorRow,
  | 'id'
  | 'type'
  | 'url'
  | 'method'
  | 'headers'
  | 'body'
  | 'timeout_s'
  | 'expected_status'
  | 'interval_s'
  | 'retry_interval_s'
  | 'hostname'
  | 'port'
  | 'assertions'
  | 'outbound_scope'
  | 'settings'
>;

/** What every type's target carries, whatever its type. */
export type TargetBase = Pick<CheckTarget, 'id' | 'timeout' | 'assertions' | 'scope'>;

/** Builds one type's check target from its row: its settings only, with the type's defaults filled in. */
export type TargetBuilder<T extends CheckTarget['type']> = (row: TargetRow, base: TargetBase) => CheckTarget<T>;

/** One stored setting of the row, or the fallback when it was never set. */
export function setting<T>(row: TargetRow, name: string, fallback: T): T {
  const value = row.settings?.[name];
  return value === undefined || value === null ? fallback : (value as T);
}

/** `ignoreTls` as the first types read it: off unless set. */
export const ignoreTls = (row: TargetRow): boolean => setting(row, 'ignoreTls', D.ignoreTls);

/** A database type's target: its (secret) connection string and query. */
export const databaseSettings = (row: TargetRow) => ({
  connectionString: setting(row, 'connectionString', ''),
  query: setting<string | null>(row, 'query', null),
});

/** An added type's target: the shared columns and its settings as its spec validated them. */
export const settingsTarget = <T extends AddedMonitorType>(row: TargetRow & { type: T }, base: TargetBase): AddedCheckTarget<T> => ({
  ...base,
  type: row.type,
  hostname: row.hostname ?? '',
  port: row.port,
  url: row.url,
  settings: row.settings ?? {},
});

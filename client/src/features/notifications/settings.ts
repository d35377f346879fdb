import type { AgentNotificationSettings, MonitorNotificationSettings, NotificationSettingsRequest, SettingsTargetType } from '@vigil/proto';
import { followUpRequest } from '../alerts/escalation';

export type MonitorEntry = MonitorNotificationSettings & { overrideGlobal: boolean };
export type AgentEntry = AgentNotificationSettings & { overrideGlobal: boolean };
export type TargetKind = 'monitors' | 'agents';

export const THRESHOLD_MIN = 0;
export const THRESHOLD_MAX = 100;

type Toggle = {
  [K in keyof AgentNotificationSettings]: AgentNotificationSettings[K] extends boolean ? K : never;
}[keyof AgentNotificationSettings];
type Field = {
  [K in keyof AgentNotificationSettings]: AgentNotificationSettings[K] extends number ? K : never;
}[keyof AgentNotificationSettings];

/**
 * Each agent threshold: its switch, its figure, the bounds the server enforces (`notifications.thresholdInvalid`)
 * and its unit. Load is per CPU core, so it may pass 100 %.
 */
export const AGENT_THRESHOLDS: ReadonlyArray<{
  metric: 'cpu' | 'memory' | 'disk' | 'load' | 'temperature' | 'diskIo' | 'bandwidth';
  toggle: Toggle;
  field: Field;
  min: number;
  max: number;
  unit: string;
}> = [
  { metric: 'cpu', toggle: 'onCpuThreshold', field: 'cpuThreshold', min: THRESHOLD_MIN, max: THRESHOLD_MAX, unit: '%' },
  { metric: 'memory', toggle: 'onMemoryThreshold', field: 'memoryThreshold', min: THRESHOLD_MIN, max: THRESHOLD_MAX, unit: '%' },
  { metric: 'disk', toggle: 'onDiskThreshold', field: 'diskThreshold', min: THRESHOLD_MIN, max: THRESHOLD_MAX, unit: '%' },
  { metric: 'load', toggle: 'onLoadThreshold', field: 'loadThreshold', min: 1, max: 1_000, unit: '%' },
  { metric: 'temperature', toggle: 'onTemperatureThreshold', field: 'temperatureThreshold', min: 1, max: 200, unit: '°C' },
  { metric: 'diskIo', toggle: 'onDiskIoThreshold', field: 'diskIoThreshold', min: THRESHOLD_MIN, max: THRESHOLD_MAX, unit: '%' },
  { metric: 'bandwidth', toggle: 'onBandwidthThreshold', field: 'bandwidthThreshold', min: 1, max: 20_000_000, unit: 'KB/s' },
];

/** Spec section 9's defaults, used until the server says otherwise. */
export const DEFAULT_MONITOR_SETTINGS: MonitorNotificationSettings = {
  enabled: false,
  onDown: true,
  onRecovery: true,
  onCertificateExpiry: true,
  onDegraded: false,
  channels: [],
  reminderMinutes: null,
  escalation: [],
};
export const DEFAULT_AGENT_SETTINGS: AgentNotificationSettings = {
  enabled: false,
  onOffline: true,
  onRecovery: true,
  onCpuThreshold: false,
  cpuThreshold: 90,
  onMemoryThreshold: false,
  memoryThreshold: 85,
  onDiskThreshold: false,
  diskThreshold: 90,
  onLoadThreshold: false,
  loadThreshold: 100,
  onTemperatureThreshold: false,
  temperatureThreshold: 80,
  onDiskIoThreshold: false,
  diskIoThreshold: 90,
  onBandwidthThreshold: false,
  bandwidthThreshold: 102_400,
  onContainerDown: false,
  onContainerUnhealthy: false,
  onServiceFailed: false,
  channels: [],
  reminderMinutes: null,
  escalation: [],
};

/** The agent alerts that name a container or unit, one per item, with no threshold to set (issue 32). */
export const AGENT_ITEM_ALERTS: ReadonlyArray<{ alert: 'containerDown' | 'containerUnhealthy' | 'serviceFailed'; toggle: Toggle }> = [
  { alert: 'containerDown', toggle: 'onContainerDown' },
  { alert: 'containerUnhealthy', toggle: 'onContainerUnhealthy' },
  { alert: 'serviceFailed', toggle: 'onServiceFailed' },
];

/** Turning override on also turns the entry on (spec section 4); turning it off leaves the rest for next time. */
export function withOverride<T extends { overrideGlobal: boolean; enabled: boolean }>(entry: T, on: boolean): T {
  return on ? { ...entry, overrideGlobal: true, enabled: true } : { ...entry, overrideGlobal: false };
}

/** A target without an entry of its own starts from a copy of the global settings, not overriding them. */
export function entryFrom<T extends object>(global: T): T & { overrideGlobal: boolean } {
  return { ...global, overrideGlobal: false };
}

export function isThreshold(value: unknown, min = THRESHOLD_MIN, max = THRESHOLD_MAX): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** Whether every threshold whose alert is on is a whole number within its bounds (spec section 5). */
export function thresholdsValid(settings: AgentNotificationSettings): boolean {
  return AGENT_THRESHOLDS.every(({ toggle, field, min, max }) => !settings[toggle] || isThreshold(settings[field], min, max));
}

/** A threshold left unusable while its alert is off is sent as its default, so the row stays valid. */
function threshold(on: boolean, value: number, fallback: number, min = THRESHOLD_MIN, max = THRESHOLD_MAX): number {
  return isThreshold(value, min, max) ? value : on ? value : fallback;
}

/** The request fields of issue 32's host thresholds. */
function hostThresholds(settings: AgentNotificationSettings): Partial<NotificationSettingsRequest> {
  const d = DEFAULT_AGENT_SETTINGS;
  return {
    on_load_threshold: settings.onLoadThreshold,
    load_threshold: threshold(settings.onLoadThreshold, settings.loadThreshold, d.loadThreshold, 1, 1_000),
    on_temperature_threshold: settings.onTemperatureThreshold,
    temperature_threshold: threshold(settings.onTemperatureThreshold, settings.temperatureThreshold, d.temperatureThreshold, 1, 200),
    on_disk_io_threshold: settings.onDiskIoThreshold,
    disk_io_threshold: threshold(settings.onDiskIoThreshold, settings.diskIoThreshold, d.diskIoThreshold),
    on_bandwidth_threshold: settings.onBandwidthThreshold,
    bandwidth_threshold: threshold(settings.onBandwidthThreshold, settings.bandwidthThreshold, d.bandwidthThreshold, 1, 20_000_000),
    on_container_down: settings.onContainerDown,
    on_container_unhealthy: settings.onContainerUnhealthy,
    on_service_failed: settings.onServiceFailed,
  };
}

/** The fields every settings call carries, whatever its target. */
function common(
  targetType: SettingsTargetType,
  settings: { enabled: boolean; channels: number[]; overrideGlobal?: boolean },
  targetId: number | undefined,
): NotificationSettingsRequest {
  return {
    target_type: targetType,
    ...(targetId === undefined ? {} : { target_id: targetId }),
    enabled: settings.enabled,
    channels: JSON.stringify(settings.channels),
    override_global: settings.overrideGlobal ?? false,
  };
}

export function monitorRequest(
  targetType: Extract<SettingsTargetType, 'global-monitor' | 'monitor'>,
  settings: MonitorNotificationSettings & { overrideGlobal?: boolean },
  targetId?: number,
): NotificationSettingsRequest {
  return {
    ...common(targetType, settings, targetId),
    on_down: settings.onDown,
    on_recovery: settings.onRecovery,
    on_certificate_expiry: settings.onCertificateExpiry,
    on_degraded: settings.onDegraded,
    ...followUpRequest(settings),
  };
}

export function agentRequest(
  targetType: Extract<SettingsTargetType, 'global-agent' | 'agent'>,
  settings: AgentNotificationSettings & { overrideGlobal?: boolean },
  targetId?: number,
): NotificationSettingsRequest {
  return {
    ...common(targetType, settings, targetId),
    on_offline: settings.onOffline,
    on_recovery: settings.onRecovery,
    on_cpu_threshold: settings.onCpuThreshold,
    cpu_threshold: threshold(settings.onCpuThreshold, settings.cpuThreshold, DEFAULT_AGENT_SETTINGS.cpuThreshold),
    on_memory_threshold: settings.onMemoryThreshold,
    memory_threshold: threshold(settings.onMemoryThreshold, settings.memoryThreshold, DEFAULT_AGENT_SETTINGS.memoryThreshold),
    on_disk_threshold: settings.onDiskThreshold,
    disk_threshold: threshold(settings.onDiskThreshold, settings.diskThreshold, DEFAULT_AGENT_SETTINGS.diskThreshold),
    ...hostThresholds(settings),
    ...followUpRequest(settings),
  };
}

/** Runs `tasks` with at most `limit` in flight; resolves with each one's outcome in order. */
export async function runLimited<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(tasks.length);
  let next = 0;
  async function worker() {
    while (next < tasks.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await tasks[index]() };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

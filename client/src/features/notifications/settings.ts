import type { AgentNotificationSettings, MonitorNotificationSettings, NotificationSettingsRequest, SettingsTargetType } from '@vigil/proto';
import { followUpRequest } from '../alerts/escalation';

export type MonitorEntry = MonitorNotificationSettings & { overrideGlobal: boolean };
export type AgentEntry = AgentNotificationSettings & { overrideGlobal: boolean };
export type TargetKind = 'monitors' | 'agents';

export const THRESHOLD_MIN = 0;
export const THRESHOLD_MAX = 100;

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
  channels: [],
  reminderMinutes: null,
  escalation: [],
};

/** Turning override on also turns the entry on (spec section 4); turning it off leaves the rest for next time. */
export function withOverride<T extends { overrideGlobal: boolean; enabled: boolean }>(entry: T, on: boolean): T {
  return on ? { ...entry, overrideGlobal: true, enabled: true } : { ...entry, overrideGlobal: false };
}

/** A target without an entry of its own starts from a copy of the global settings, not overriding them. */
export function entryFrom<T extends object>(global: T): T & { overrideGlobal: boolean } {
  return { ...global, overrideGlobal: false };
}

export function isThreshold(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= THRESHOLD_MIN && value <= THRESHOLD_MAX;
}

/** Whether every threshold whose alert is on is a whole number from 0 to 100 (spec section 5). */
export function thresholdsValid(settings: AgentNotificationSettings): boolean {
  return (
    (!settings.onCpuThreshold || isThreshold(settings.cpuThreshold)) &&
    (!settings.onMemoryThreshold || isThreshold(settings.memoryThreshold)) &&
    (!settings.onDiskThreshold || isThreshold(settings.diskThreshold))
  );
}

/** A threshold left unusable while its alert is off is sent as its default, so the row stays valid. */
function threshold(on: boolean, value: number, fallback: number): number {
  return isThreshold(value) ? value : on ? value : fallback;
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

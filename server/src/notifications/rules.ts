import type { AgentStatus, EscalationStep, MonitorStatus } from '@vigil/proto';

/** One target's notification settings (global or specific), as stored. */
export interface TargetSettings {
  enabled: boolean;
  on_down: boolean;
  on_recovery: boolean;
  /** Monitors: certificate and domain expiry thresholds and expiries (`certificate.*`, `domain.expiring`, `domain.expired`). */
  on_certificate_expiry: boolean;
  on_offline: boolean;
  on_cpu_threshold: boolean;
  cpu_threshold: number;
  on_memory_threshold: boolean;
  memory_threshold: number;
  on_disk_threshold: boolean;
  disk_threshold: number;
  on_load_threshold: boolean;
  load_threshold: number;
  on_temperature_threshold: boolean;
  temperature_threshold: number;
  on_disk_io_threshold: boolean;
  disk_io_threshold: number;
  on_bandwidth_threshold: boolean;
  bandwidth_threshold: number;
  /** Agents: one episode per container or unit (host-item-rules.ts). */
  on_container_down: boolean;
  on_container_unhealthy: boolean;
  on_service_failed: boolean;
  channels: number[];
  override_global: boolean;
  /** Monitors: a degraded spell opens its own alert. */
  on_degraded: boolean;
  /** Minutes between reminders while an alert is open and unacknowledged; null: none. */
  reminder_minutes: number | null;
  escalation: EscalationStep[];
}

/** A specific entry with override on replaces the global one; otherwise the global one applies. Null: nothing to send. */
export function effectiveSettings(global: TargetSettings | undefined, specific: TargetSettings | undefined): TargetSettings | null {
  const chosen = specific?.override_global ? specific : global;
  return chosen && chosen.enabled && chosen.channels.length ? chosen : null;
}

export type StatusDecision = { open: 'down' | 'offline' } | { close: 'recovery' } | null;

/**
 * What a monitor transition means for its down alert: going down opens an episode (the down alert), coming up or
 * degraded closes it (the recovery, sent only when the episode's alert was). Pending alone is not news, and neither
 * is `unreachable`: a dependency's alert speaks for it, so it neither opens nor closes the episode (unreachable → down
 * opens it once the dependency is back and the monitor still fails).
 */
export function monitorDecision(previous: MonitorStatus, status: MonitorStatus): StatusDecision {
  if (status === 'down' && previous !== 'down') return { open: 'down' };
  if ((status === 'up' || status === 'degraded') && previous !== 'up' && previous !== 'degraded') return { close: 'recovery' };
  return null;
}

/**
 * A degraded spell, apart from the down episode: entering `degraded` opens it; leaving it closes it, announced only
 * when the monitor is back `up` (going down from degraded is the down alert's news, not a recovery).
 */
export function degradedDecision(previous: MonitorStatus, status: MonitorStatus): { open: true } | { close: boolean } | null {
  if (status === 'degraded' && previous !== 'degraded') return { open: true };
  if (previous === 'degraded' && status !== 'degraded') return { close: status === 'up' };
  return null;
}

/** Offline opens an episode; back to active closes it (connecting on the way back is not yet news). */
export function agentDecision(previous: AgentStatus, status: AgentStatus): StatusDecision {
  if (status === 'inactive' && previous !== 'inactive') return { open: 'offline' };
  if (status === 'active' && previous !== 'active') return { close: 'recovery' };
  return null;
}

export interface StreakState {
  streak: number;
  open: boolean;
}

/**
 * A metric alerts once it has been above its threshold for `window` reports in a row, once per episode, and
 * recovers when it is back at or below the threshold. Never one alert per report.
 */
export function thresholdStep(
  state: StreakState,
  value: number,
  threshold: number,
  window: number,
): { state: StreakState; fire: 'high' | 'recovery' | null } {
  if (value > threshold) {
    const streak = state.streak + 1;
    if (!state.open && streak >= window) return { state: { streak, open: true }, fire: 'high' };
    return { state: { streak, open: state.open }, fire: null };
  }
  if (state.open) return { state: { streak: 0, open: false }, fire: 'recovery' };
  return { state: { streak: 0, open: false }, fire: null };
}

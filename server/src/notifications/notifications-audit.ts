import { channelSpec, isChannelType, isSecretField } from '@vigil/proto';
import { maskUrl } from '../common/secret-values';
import { SECRET, type Masker, type Snapshot } from '../audit/audit-changes';
import type { ChannelRow } from './notifications.repository';
import type { TargetSettings } from './rules';

const CONFIG = 'config.';

/** A channel as the audit log compares it: its settings and each config field as `config.<name>`, real values. */
export function channelSnapshot(
  row: Pick<ChannelRow, 'name' | 'type' | 'enabled' | 'language' | 'config'> &
    Partial<Pick<ChannelRow, 'group_wait_seconds' | 'group_interval_seconds'>>,
): Snapshot {
  const snapshot: Snapshot = { name: row.name, type: row.type, enabled: Boolean(row.enabled), language: row.language };
  if (row.group_wait_seconds !== undefined) snapshot.group_wait_seconds = row.group_wait_seconds;
  if (row.group_interval_seconds !== undefined) snapshot.group_interval_seconds = row.group_interval_seconds;
  for (const [key, value] of Object.entries(row.config ?? {})) snapshot[`${CONFIG}${key}`] = value;
  return snapshot;
}

/**
 * From the channel spec, as reads mask them: a secret field (token, password, webhook URL that is the secret, each
 * value of a secret map) is recorded only as changed; a URL field that is not a secret loses its credentials. Both
 * types' specs count when the type changes.
 */
export function channelMask(...types: string[]): Masker {
  const fields = types.filter(isChannelType).flatMap((type) => channelSpec(type).fields);
  return (field, value) => {
    if (!field.startsWith(CONFIG)) return value;
    const name = field.slice(CONFIG.length);
    const specs = fields.filter((spec) => spec.name === name);
    // A field no spec names is no field of the type; unknown, it is kept out.
    if (specs.length === 0 || specs.some(isSecretField)) return SECRET;
    if (specs.some((spec) => spec.kind === 'url') && typeof value === 'string') return maskUrl(value);
    return value;
  };
}

/** A settings entry's rules as the audit log compares them (thresholds and channel ids as numbers). */
export function settingsSnapshot(settings: TargetSettings): Snapshot {
  return {
    enabled: Boolean(settings.enabled),
    on_down: Boolean(settings.on_down),
    on_recovery: Boolean(settings.on_recovery),
    on_certificate_expiry: Boolean(settings.on_certificate_expiry),
    on_offline: Boolean(settings.on_offline),
    on_cpu_threshold: Boolean(settings.on_cpu_threshold),
    cpu_threshold: Number(settings.cpu_threshold),
    on_memory_threshold: Boolean(settings.on_memory_threshold),
    memory_threshold: Number(settings.memory_threshold),
    on_disk_threshold: Boolean(settings.on_disk_threshold),
    disk_threshold: Number(settings.disk_threshold),
    on_load_threshold: Boolean(settings.on_load_threshold),
    load_threshold: Number(settings.load_threshold),
    on_temperature_threshold: Boolean(settings.on_temperature_threshold),
    temperature_threshold: Number(settings.temperature_threshold),
    on_disk_io_threshold: Boolean(settings.on_disk_io_threshold),
    disk_io_threshold: Number(settings.disk_io_threshold),
    on_bandwidth_threshold: Boolean(settings.on_bandwidth_threshold),
    bandwidth_threshold: Number(settings.bandwidth_threshold),
    on_container_down: Boolean(settings.on_container_down),
    on_container_unhealthy: Boolean(settings.on_container_unhealthy),
    on_service_failed: Boolean(settings.on_service_failed),
    channels: settings.channels.map(Number),
    override_global: Boolean(settings.override_global),
    on_degraded: Boolean(settings.on_degraded),
    reminder_minutes: settings.reminder_minutes ?? null,
    escalation: settings.escalation ?? [],
  };
}

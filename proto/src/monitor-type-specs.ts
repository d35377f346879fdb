/**
 * One spec per monitor type: its fields (kind, required, default, secret, help), where each is stored, the assertion
 * sources its checks observe, its readable target and its icon. The server's validation, masking, storage and checker
 * registry and the client's form, badges and targets derive from it. The first types (http … group) keep their own
 * columns and validation; every later type lives in `type-specs/<type>.ts` and stores its settings in one JSON column,
 * so a new type needs no schema change (docs/architecture.md, "Monitor types").
 */
import type { ChannelFieldSpec, FieldSet } from './channel-fields';
import type { AssertionSource, DnsRecordType } from './monitor-types';
import type { Localized } from './templates';

/**
 * A shared column a type's field is stored in (`own`: the first types' columns of their own, e.g. `packet_count`);
 * every other field is kept in `settings`.
 */
export type MonitorColumn = 'hostname' | 'port' | 'url' | 'own';

export interface MonitorFieldSpec extends ChannelFieldSpec {
  /** Stored in this shared column (validated with it: host names, ports, URLs) instead of `settings`. */
  column?: MonitorColumn;
  /**
   * A `number` field holding an agent's id: the agent must exist, the monitor depends on it (so it is `unreachable`,
   * not down, while the agent is offline) and the form picks it among the agents.
   */
  ref?: 'agent';
}

/** What a type's readable target is built from. */
export interface TargetParts {
  hostname: string | null;
  port: number | null;
  url?: string | null;
  dns_record_type?: DnsRecordType | null;
  settings?: Record<string, unknown> | null;
}

export interface MonitorTypeSpec extends FieldSet {
  readonly fields: readonly MonitorFieldSpec[];
  /** What its checks observe, in the order the assertion builder offers them. */
  readonly sources: readonly AssertionSource[];
  /** The target as people read it, without a scheme (`broker:1883 sensors/#`); null: none (push, group, manual). */
  target(parts: TargetParts): string | null;
  /** How notifications name the type (the `type` variable of templates); the screens use the dictionaries. */
  readonly name: Localized;
  /** The `target` notifications name when `target` gives none (push: the heartbeat, group: its members). */
  readonly targetless?: Localized;
  /** The client's icon for it (client/src/features/monitors/types/meta.ts maps the key to a picture). */
  readonly icon: string;
  /** Its checks can see a certificate (expiry alerts and `certificateDays` apply). */
  readonly certificates?: boolean;
  /**
   * Never checked: its status follows its members (group) or is set by hand or through `POST /api/monitors/{id}/status`
   * (manual).
   */
  readonly unscheduled?: boolean;
}

/** `host:port`, bracketing an IPv6 address; the port left out when there is none. */
export function hostPort(hostname: string | null, port: number | null): string {
  const host = (hostname ?? '').includes(':') ? `[${hostname}]` : (hostname ?? '');
  return port ? `${host}:${port}` : host;
}

/** The setting of a spec type's monitor as text ('' when absent). */
export const settingText = (parts: TargetParts, name: string): string => {
  const value = parts.settings?.[name];
  return value === undefined || value === null ? '' : String(value);
};

/** The fields a type stores in `settings` (every field without a column). */
export const settingsFields = (spec: MonitorTypeSpec): readonly MonitorFieldSpec[] => spec.fields.filter((field) => !field.column);

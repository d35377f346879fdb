/**
 * One spec per monitor type: its fields (kind, required, default, secret, help), where each is stored, the assertion
 * sources its checks observe, its readable target and its icon. The server's validation, masking, storage, row
 * mapping and checker registry and the client's form, badges and targets derive from it. Every type stores its own
 * settings in one JSON column (`monitors.settings`) beside a few shared columns SQL reads, so a new type needs no
 * schema change (docs/architecture.md, "Monitor types"); the first types (`type-specs/first-types.ts`) read theirs at
 * the top level of a monitor, as the API always had them.
 */
import type { ChannelFieldSpec, FieldSet } from './channel-fields';
import type { AssertionSource } from './monitor-types';
import type { DnsRecordType } from './type-specs/first-types';
import type { Localized } from './templates';

/**
 * A shared column a type's field is stored in, because SQL reads it: host names and URLs for lists and search, ports,
 * certificate thresholds for status pages and expiry alerts, the push token through its unique index. `own`: a first
 * type's field, kept in `settings` like every field without a column but read at the top level of a monitor under
 * its snake_case name (`packetCount` → `packet_count`, SPEC section 7) instead of inside `settings`.
 */
export type MonitorColumn = 'hostname' | 'port' | 'url' | 'cert_expiry_days' | 'push_token' | 'own';

export interface MonitorFieldSpec extends ChannelFieldSpec {
  /** Stored in this shared column (validated with it: host names, ports, URLs) instead of `settings`. */
  column?: MonitorColumn;
  /**
   * A `number` field holding an agent's id: the agent must exist, the monitor depends on it (so it is `unreachable`,
   * not down, while the agent is offline) and the form picks it among the agents.
   */
  ref?: 'agent';
  /** `own` fields: what a monitor of a type without this field reads for it (null when unset; `ignore_tls` reads false). */
  whenAbsent?: boolean;
  /** Optional text that null or blank text clears (the check then does without: no DNS server, no query). */
  clearable?: boolean;
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

/** The fields an added type sends and reads inside `settings` (every field without a column). */
export const settingsFields = (spec: MonitorTypeSpec): readonly MonitorFieldSpec[] => spec.fields.filter((field) => !field.column);

/** Every field a type keeps in the `settings` column: its `settings` fields and a first type's `own` ones. */
export const storedFields = (spec: MonitorTypeSpec): readonly MonitorFieldSpec[] =>
  spec.fields.filter((field) => !field.column || field.column === 'own');

/** A first type's `own` field's name in reads (`dnsRecordType` → `dns_record_type`). */
export const readName = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

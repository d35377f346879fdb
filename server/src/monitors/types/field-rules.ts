import type { MessageCode, MonitorType } from '@vigil/proto';
import { isHostname } from '../checkers/hostname';
import { dnsFieldRules } from './dns/dns.fields';
import { mysqlFieldRules } from './mysql/mysql.fields';
import { postgresFieldRules } from './postgres/postgres.fields';
import { redisFieldRules } from './redis/redis.fields';

/** A field's rule beyond its spec that needs the server's own parsers: its message, or null when the value passes. */
export type FieldRule = (value: unknown) => MessageCode | null;
export type FieldRules = Readonly<Record<string, FieldRule>>;

/** Rules of a field whatever the type reading it. */
const SHARED_FIELD_RULES: FieldRules = {
  hostname: (value) => (isHostname(value) ? null : 'monitors.hostnameInvalid'),
};

/** Each type's server rules, kept in its folder; a type whose spec says all needs no line. */
const TYPE_FIELD_RULES: Partial<Record<MonitorType, FieldRules>> = {
  dns: dnsFieldRules,
  postgres: postgresFieldRules,
  mysql: mysqlFieldRules,
  redis: redisFieldRules,
};

/**
 * The server's verdict on a field's value (already read by its spec) for the types it is sent for: one type, or for an
 * edit naming none every type reading the field, where a value any of them accepts passes (the service then judges it
 * against the stored type) and otherwise the most specific message answers.
 */
export function serverFieldProblem(types: readonly MonitorType[], name: string, value: unknown, generic: MessageCode): MessageCode | null {
  const shared = SHARED_FIELD_RULES[name]?.(value) ?? null;
  if (shared !== null) return shared;
  const problems = types.map((type) => TYPE_FIELD_RULES[type]?.[name]?.(value) ?? null);
  if (problems.length === 0 || problems.includes(null)) return null;
  return problems.find((code) => code !== generic) ?? problems[0];
}

import type { MonitorTypeReadFields } from './monitor-types';
import { MONITOR_TYPE_SPECS } from './type-specs';

/** What a monitor read needs to show its target (monitor reads, notification history entries). */
export type TargetFields = Pick<MonitorTypeReadFields, 'type' | 'hostname' | 'port' | 'dns_record_type'> & {
  url?: string | null;
  settings?: Record<string, unknown> | null;
};

/**
 * The readable target of a monitor whose type has no URL, stored in its `url` column, e.g. `tcp://db:5432`,
 * `dns://example.com?type=MX`: the type's scheme before its spec's target.
 */
export function targetOf(fields: TargetFields): string {
  switch (fields.type) {
    case 'http':
    case 'websocket':
      return fields.url ?? '';
    case 'dns':
      return `dns://${fields.hostname ?? ''}?type=${fields.dns_record_type ?? 'A'}`;
    case 'push':
      return 'push://heartbeat';
    case 'group':
      return 'group://members';
    default:
      return `${fields.type}://${MONITOR_TYPE_SPECS[fields.type].target(fields) ?? ''}`;
  }
}

/**
 * The target as people read it: the URL for HTTP and WebSocket, `host:port`, `example.com MX`, or null for a type
 * without one (push, group, manual: the caller words the heartbeat or the members in its language). The screens and
 * the notification texts both show this, so a target reads the same everywhere.
 */
export function readableTarget(monitor: TargetFields): string | null {
  return MONITOR_TYPE_SPECS[monitor.type].target(monitor);
}

import { MONITOR_TYPE_DEFAULTS, type MonitorTypeReadFields } from './monitor-types';

/** What a monitor read needs to show its target (monitor reads, notification history entries). */
export type TargetFields = Pick<MonitorTypeReadFields, 'type' | 'hostname' | 'port' | 'dns_record_type'> & { url?: string | null };

/** The readable target of a monitor whose type has no URL, e.g. `tcp://db:5432`, `dns://example.com?type=MX`. */
export function targetOf(fields: TargetFields): string {
  switch (fields.type) {
    case 'http':
    case 'websocket':
      return fields.url ?? '';
    case 'tcp':
    case 'tls':
    case 'grpc':
      return `${fields.type}://${hostPort(fields.hostname ?? '', fields.port)}`;
    case 'ping':
      return `ping://${fields.hostname ?? ''}`;
    case 'dns':
      return `dns://${fields.hostname ?? ''}?type=${fields.dns_record_type ?? MONITOR_TYPE_DEFAULTS.dnsRecordType}`;
    case 'push':
      return 'push://heartbeat';
    case 'group':
      return 'group://members';
    case 'postgres':
    case 'mysql':
    case 'redis':
      return `${fields.type}://${fields.hostname ?? ''}${fields.port ? `:${fields.port}` : ''}`;
  }
}

/**
 * The target as people read it: the URL for HTTP and WebSocket, `host:port`, `example.com MX`, or null for a push
 * or group monitor (its target is the heartbeat or its members, which the caller words in its language). `targetOf` minus the scheme; the
 * screens and the notification texts both show this, so a target reads the same everywhere.
 */
export function readableTarget(monitor: TargetFields): string | null {
  switch (monitor.type) {
    case 'push':
    case 'group':
      return null;
    case 'http':
    case 'websocket':
      return monitor.url ?? '';
    case 'dns':
      return `${monitor.hostname ?? ''} ${monitor.dns_record_type ?? MONITOR_TYPE_DEFAULTS.dnsRecordType}`;
    case 'postgres':
    case 'mysql':
    case 'redis':
      // The server reads hostname and port out of the (secret) connection string; the read `url` says the same.
      return withoutScheme(monitor.hostname ? targetOf(monitor) : (monitor.url ?? ''));
    default:
      return withoutScheme(targetOf(monitor));
  }
}

function hostPort(hostname: string, port: number | null): string {
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  return port ? `${host}:${port}` : host;
}

function withoutScheme(target: string): string {
  return target.replace(/^[a-z]+:\/\//, '');
}

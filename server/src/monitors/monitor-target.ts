import { MONITOR_TYPE_DEFAULTS as D } from '@vigil/proto';
import type { CheckTarget } from './checkers/checker';
import type { MonitorRow, ScheduledMonitor } from './monitor.types';

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
  | 'packet_count'
  | 'dns_record_type'
  | 'dns_server'
  | 'message'
  | 'grpc_service'
  | 'tls'
  | 'connection_string'
  | 'query'
  | 'ignore_tls'
  | 'max_redirects'
  | 'assertions'
>;

/** What the checker of the monitor's type is given: its settings only, with the type's defaults filled in. */
export function toCheckTarget(row: TargetRow): CheckTarget {
  const base = { id: row.id, timeout: row.timeout_s, assertions: row.assertions ?? [] };
  const hostname = row.hostname ?? '';
  switch (row.type) {
    case 'http':
      return {
        ...base,
        type: 'http',
        url: row.url,
        method: row.method,
        headers: row.headers ?? {},
        body: row.body,
        expectedStatus: row.expected_status,
        ignoreTls: row.ignore_tls,
        maxRedirects: row.max_redirects ?? D.maxRedirects,
      };
    case 'tcp':
      return { ...base, type: 'tcp', hostname, port: row.port ?? 0 };
    case 'ping':
      return { ...base, type: 'ping', hostname, packetCount: row.packet_count ?? D.packetCount };
    case 'dns':
      return { ...base, type: 'dns', hostname, dnsRecordType: row.dns_record_type ?? D.dnsRecordType, dnsServer: row.dns_server };
    case 'tls':
      return { ...base, type: 'tls', hostname, port: row.port ?? D.tlsPort, ignoreTls: row.ignore_tls };
    case 'push':
      return { ...base, type: 'push', interval: row.interval_s, retryInterval: row.retry_interval_s };
    case 'websocket':
      return { ...base, type: 'websocket', url: row.url, message: row.message, ignoreTls: row.ignore_tls };
    case 'grpc':
      return {
        ...base,
        type: 'grpc',
        hostname,
        port: row.port ?? 0,
        grpcService: row.grpc_service ?? '',
        tls: row.tls ?? false,
        ignoreTls: row.ignore_tls,
      };
    case 'postgres':
      return { ...base, type: 'postgres', connectionString: row.connection_string ?? '', query: row.query };
    case 'mysql':
      return { ...base, type: 'mysql', connectionString: row.connection_string ?? '', query: row.query };
    case 'redis':
      return { ...base, type: 'redis', connectionString: row.connection_string ?? '', query: row.query };
  }
}

/** A monitor as the schedulers hold it: its check target and rhythm. */
export function toScheduled(row: MonitorRow): ScheduledMonitor {
  return {
    ...toCheckTarget(row),
    interval: row.interval_s,
    retryInterval: row.retry_interval_s,
    nextCheckAt: row.next_check_at,
    status: row.status,
  };
}

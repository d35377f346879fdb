import { isAddedType, type AddedMonitorType, type MonitorType } from '@vigil/proto';
import type { CheckTarget } from '../checkers/checker';
import { settingsTarget, type TargetBuilder, type TargetRow } from './check-target';
import { dnsTarget } from './dns/dns.target';
import { groupTarget } from './group/group.target';
import { grpcTarget } from './grpc/grpc.target';
import { httpTarget } from './http/http.target';
import { mysqlTarget } from './mysql/mysql.target';
import { pingTarget } from './ping/ping.target';
import { postgresTarget } from './postgres/postgres.target';
import { pushTarget } from './push/push.target';
import { redisTarget } from './redis/redis.target';
import { tcpTarget } from './tcp/tcp.target';
import { tlsTarget } from './tls/tls.target';
import { websocketTarget } from './websocket/websocket.target';

/**
 * How the first types build their check targets, each in its folder (a first type left out does not compile). An
 * added type needs no line: its checker reads the shared columns and its spec-validated `settings` (settingsTarget).
 */
const TYPE_TARGETS: { [T in Exclude<MonitorType, AddedMonitorType>]: TargetBuilder<T> } = {
  http: httpTarget,
  tcp: tcpTarget,
  ping: pingTarget,
  dns: dnsTarget,
  tls: tlsTarget,
  push: pushTarget,
  websocket: websocketTarget,
  grpc: grpcTarget,
  postgres: postgresTarget,
  mysql: mysqlTarget,
  redis: redisTarget,
  group: groupTarget,
};

/** What the checker of the monitor's type is given: its settings only, with the type's defaults filled in. */
export function toCheckTarget(row: TargetRow): CheckTarget {
  const base = { id: row.id, timeout: row.timeout_s, assertions: row.assertions ?? [], scope: row.outbound_scope };
  const type = row.type;
  if (isAddedType(type)) return settingsTarget({ ...row, type }, base);
  return (TYPE_TARGETS[type] as TargetBuilder<typeof type>)(row, base);
}

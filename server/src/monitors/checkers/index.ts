import type { MonitorType } from '@vigil/proto';
import { ADDED_CHECKERS } from '../types';
import type { CheckerDeps } from './deps';
import type { Checker } from './checker';
import { DnsChecker } from './dns.checker';
import { GroupChecker } from './group.checker';
import { GrpcChecker } from './grpc.checker';
import { HttpChecker } from './http.checker';
import { MysqlChecker } from './mysql.checker';
import { PingChecker } from './ping.checker';
import { PostgresChecker } from './postgres.checker';
import { PushChecker } from './push.checker';
import { RedisChecker } from './redis.checker';
import { TcpChecker } from './tcp.checker';
import { TlsChecker } from './tls.checker';
import { WebsocketChecker } from './websocket.checker';

export * from './checker';

export type { CheckerDeps } from './deps';

/** Every monitor type's checker; adding a type adds one line here (a type left out does not compile). */
export const CHECKERS = {
  http: ({ config, outbound }: CheckerDeps) => new HttpChecker({ outbound, monitors: config.monitors }),
  tcp: ({ outbound }: CheckerDeps) => new TcpChecker({ outbound }),
  ping: ({ outbound }: CheckerDeps) => new PingChecker({ outbound }),
  dns: ({ outbound }: CheckerDeps) => new DnsChecker({ outbound }),
  tls: ({ outbound }: CheckerDeps) => new TlsChecker({ outbound }),
  push: () => new PushChecker(),
  websocket: ({ outbound }: CheckerDeps) => new WebsocketChecker({ outbound }),
  grpc: ({ outbound }: CheckerDeps) => new GrpcChecker({ outbound }),
  postgres: ({ outbound }: CheckerDeps) => new PostgresChecker({ outbound }),
  mysql: ({ outbound }: CheckerDeps) => new MysqlChecker({ outbound }),
  redis: ({ outbound }: CheckerDeps) => new RedisChecker({ outbound }),
  group: () => new GroupChecker(),
  ...ADDED_CHECKERS,
} satisfies { [T in MonitorType]: (deps: CheckerDeps) => Checker<T> };

/** One checker instance per type, as built (each keeps its own pools). */
export type CheckerRegistry = { [T in MonitorType]: ReturnType<(typeof CHECKERS)[T]> };

export function createCheckers(deps: CheckerDeps): CheckerRegistry {
  return Object.fromEntries(Object.entries(CHECKERS).map(([type, create]) => [type, create(deps)])) as CheckerRegistry;
}

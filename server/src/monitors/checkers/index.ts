import type { MonitorType } from '@vigil/proto';
import type { AppConfig } from '../../config/config';
import type { Checker } from './checker';
import { DnsChecker } from './dns.checker';
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

/** What checkers are built from. */
export interface CheckerDeps {
  config: AppConfig;
}

/** Every monitor type's checker; adding a type adds one line here (a type left out does not compile). */
export const CHECKERS = {
  http: ({ config }: CheckerDeps) => new HttpChecker(config),
  tcp: ({ config }: CheckerDeps) => new TcpChecker(config),
  ping: ({ config }: CheckerDeps) => new PingChecker(config),
  dns: ({ config }: CheckerDeps) => new DnsChecker(config),
  tls: ({ config }: CheckerDeps) => new TlsChecker(config),
  push: () => new PushChecker(),
  websocket: ({ config }: CheckerDeps) => new WebsocketChecker(config),
  grpc: ({ config }: CheckerDeps) => new GrpcChecker(config),
  postgres: ({ config }: CheckerDeps) => new PostgresChecker(config),
  mysql: ({ config }: CheckerDeps) => new MysqlChecker(config),
  redis: ({ config }: CheckerDeps) => new RedisChecker(config),
} satisfies { [T in MonitorType]: (deps: CheckerDeps) => Checker<T> };

/** One checker instance per type, as built (each keeps its own pools). */
export type CheckerRegistry = { [T in MonitorType]: ReturnType<(typeof CHECKERS)[T]> };

export function createCheckers(deps: CheckerDeps): CheckerRegistry {
  return Object.fromEntries(Object.entries(CHECKERS).map(([type, create]) => [type, create(deps)])) as CheckerRegistry;
}

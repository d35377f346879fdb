import type { MonitorType } from '@vigil/proto';
import type { Checker } from '../checkers/checker';
import type { CheckerDeps } from '../checkers/deps';
import { AmqpChecker } from './amqp/amqp.checker';
import { BrowserChecker } from './browser/browser.checker';
import { ContainerChecker } from './container/container.checker';
import { ContainerHosts } from './container/container-hosts';
import { DnsChecker } from './dns/dns.checker';
import { DomainChecker } from './domain/domain.checker';
import { GroupChecker } from './group/group.checker';
import { GrpcChecker } from './grpc/grpc.checker';
import { HttpChecker } from './http/http.checker';
import { ManualChecker } from './manual/manual.checker';
import { MqttChecker } from './mqtt/mqtt.checker';
import { MysqlChecker } from './mysql/mysql.checker';
import { NatsChecker } from './nats/nats.checker';
import { NtpChecker } from './ntp/ntp.checker';
import { PingChecker } from './ping/ping.checker';
import { PostgresChecker } from './postgres/postgres.checker';
import { PushChecker } from './push/push.checker';
import { RadiusChecker } from './radius/radius.checker';
import { RedisChecker } from './redis/redis.checker';
import { SmtpChecker } from './smtp/smtp.checker';
import { SnmpChecker } from './snmp/snmp.checker';
import { TcpChecker } from './tcp/tcp.checker';
import { TlsChecker } from './tls/tls.checker';
import { WebsocketChecker } from './websocket/websocket.checker';

/**
 * Every type's checker, one folder per type (`types/<type>/`: checker, helpers, specs, fakes); adding a type adds one
 * line here and its spec in proto's `type-specs/` (a type left out does not compile).
 */
export const TYPE_CHECKERS = {
  http: ({ config, outbound }) => new HttpChecker({ outbound, monitors: config.monitors }),
  tcp: ({ outbound }) => new TcpChecker({ outbound }),
  ping: ({ outbound }) => new PingChecker({ outbound }),
  dns: ({ outbound }) => new DnsChecker({ outbound }),
  tls: ({ outbound }) => new TlsChecker({ outbound }),
  push: () => new PushChecker(),
  websocket: ({ outbound }) => new WebsocketChecker({ outbound }),
  grpc: ({ outbound }) => new GrpcChecker({ outbound }),
  postgres: ({ outbound }) => new PostgresChecker({ outbound }),
  mysql: ({ outbound }) => new MysqlChecker({ outbound }),
  redis: ({ outbound }) => new RedisChecker({ outbound }),
  group: () => new GroupChecker(),
  manual: () => new ManualChecker(),
  mqtt: ({ outbound }) => new MqttChecker({ outbound }),
  amqp: ({ outbound }) => new AmqpChecker({ outbound }),
  nats: ({ outbound }) => new NatsChecker({ outbound }),
  domain: ({ config, outbound }) => new DomainChecker({ config, outbound }),
  browser: ({ config, outbound }) =>
    new BrowserChecker({ outbound, chromiumPath: config.monitors.chromiumPath, concurrency: config.monitors.browserCheckConcurrency }),
  snmp: ({ outbound }) => new SnmpChecker({ outbound }),
  radius: ({ outbound }) => new RadiusChecker({ outbound }),
  smtp: ({ outbound }) => new SmtpChecker({ outbound }),
  ntp: ({ outbound }) => new NtpChecker({ outbound }),
  container: ({ database }) => new ContainerChecker(database ? new ContainerHosts(database) : null),
} satisfies { [T in MonitorType]: (deps: CheckerDeps) => Checker<T> };

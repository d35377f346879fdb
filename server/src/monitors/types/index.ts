import type { AddedMonitorType } from '@vigil/proto';
import type { Checker } from '../checkers/checker';
import type { CheckerDeps } from '../checkers/deps';
import { AmqpChecker } from './amqp/amqp.checker';
import { BrowserChecker } from './browser/browser.checker';
import { ContainerChecker } from './container/container.checker';
import { ContainerHosts } from './container/container-hosts';
import { DomainChecker } from './domain/domain.checker';
import { ManualChecker } from './manual/manual.checker';
import { MqttChecker } from './mqtt/mqtt.checker';
import { NatsChecker } from './nats/nats.checker';
import { NtpChecker } from './ntp/ntp.checker';
import { RadiusChecker } from './radius/radius.checker';
import { SmtpChecker } from './smtp/smtp.checker';
import { SnmpChecker } from './snmp/snmp.checker';

/**
 * The checkers of the types added after the first ones, one folder each (`types/<type>/`: checker, specs, fakes);
 * adding a type adds one line here and its spec in proto's `type-specs/` (a type left out does not compile).
 */
export const ADDED_CHECKERS = {
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
} satisfies { [T in AddedMonitorType]: (deps: CheckerDeps) => Checker<T> };

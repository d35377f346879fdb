import type { MonitorTypeSpec } from '../monitor-type-specs';
import { AMQP } from './amqp';
import { BROWSER } from './browser';
import { CONTAINER } from './container';
import { DOMAIN } from './domain';
import { FIRST_TYPE_SPECS } from './first-types';
import { MANUAL } from './manual';
import { MQTT } from './mqtt';
import { NATS } from './nats';
import { NTP } from './ntp';
import { RADIUS } from './radius';
import { SMTP } from './smtp';
import { SNMP } from './snmp';

/** The types added after the first ones, one line each; their settings live in the `settings` column. */
export const ADDED_TYPE_SPECS = {
  manual: MANUAL,
  mqtt: MQTT,
  amqp: AMQP,
  nats: NATS,
  domain: DOMAIN,
  browser: BROWSER,
  smtp: SMTP,
  ntp: NTP,
  snmp: SNMP,
  radius: RADIUS,
  container: CONTAINER,
} as const satisfies Record<string, MonitorTypeSpec>;

/** Every monitor type's spec, in the order the type picker lists them. */
export const MONITOR_TYPE_SPECS = { ...FIRST_TYPE_SPECS, ...ADDED_TYPE_SPECS } as const;

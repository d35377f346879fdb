/**
 * Each mapped monitor is checked by the monitor API's own rules before the document is built, so one value Kuma
 * accepted and we do not (a host name with a space, a topic filter Kuma never parsed) skips that monitor, named,
 * instead of refusing the whole import.
 */
import { isAddedType, typeSpec, type ConfigMonitor, type MonitorType } from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import { createValidationPipe } from '../common/validation';
import { checkedSettings } from '../monitors/monitor-settings';
import { CreateMonitorDto } from '../monitors/monitors.dto';

const validation = createValidationPipe();

/** Null when the monitor would be accepted; else the field (or message) refused, never the value. */
export async function monitorProblem(monitor: ConfigMonitor): Promise<string | null> {
  const { key: _key, parent: _parent, notifications: _notifications, dependsOn: _dependsOn, ...body } = monitor;
  try {
    await validation.transform(body, { type: 'body', metatype: CreateMonitorDto });
    const type = monitor.type as MonitorType;
    if (isAddedType(type)) checkedSettings(typeSpec(type), body, {}, true);
    return null;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const { message, field } = error.getResponse() as { message: string; field?: string };
    return field ?? message;
  }
}

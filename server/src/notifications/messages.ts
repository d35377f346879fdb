import { readableTarget, type AgentDto, type CheckDto, type MonitorDto, type MonitorStatus, type MonitorType } from '@vigil/proto';
import type { NotificationMessage } from './providers';
import { targetlessName, render, textFor, TYPE_NAMES, type Language, type Localized, type NotificationEvent, type Text } from './templates';

/** Values to fill a text's `{{variables}}`; a `Localized` one is read in the channel's language. */
export type MessageVars = Record<string, string | number | null | undefined | Localized>;

const SEVERITY: Record<NotificationEvent, NotificationMessage['severity']> = {
  'monitor.down': 'alert',
  'monitor.recovery': 'recovery',
  'agent.offline': 'alert',
  'agent.recovery': 'recovery',
  'agent.cpu_high': 'alert',
  'agent.memory_high': 'alert',
  'agent.disk_high': 'alert',
  'agent.cpu_recovery': 'recovery',
  'agent.memory_recovery': 'recovery',
  'agent.disk_recovery': 'recovery',
  'agent.load_high': 'alert',
  'agent.load_recovery': 'recovery',
  'agent.temperature_high': 'alert',
  'agent.temperature_recovery': 'recovery',
  'agent.disk_io_high': 'alert',
  'agent.disk_io_recovery': 'recovery',
  'agent.bandwidth_high': 'alert',
  'agent.bandwidth_recovery': 'recovery',
  'agent.container_down': 'alert',
  'agent.container_recovery': 'recovery',
  'agent.container_unhealthy': 'alert',
  'agent.container_healthy': 'recovery',
  'agent.service_failed': 'alert',
  'agent.service_recovery': 'recovery',
  'certificate.expiring': 'alert',
  'certificate.expired': 'alert',
  'domain.expiring': 'alert',
  'domain.expired': 'alert',
  'monitor.degraded': 'alert',
  'monitor.degraded_recovery': 'recovery',
  'monitor.flapping': 'alert',
  'monitor.flapping_settled': 'recovery',
  'alert.reminder': 'alert',
  'alert.escalation': 'alert',
  'alert.acknowledged': 'info',
  'maintenance.started': 'info',
  'maintenance.ended': 'info',
  test: 'info',
};

/** `2026-11-23 08:15:02 UTC`: the server's zone means nothing to the reader, so times are given in UTC and say so. */
export function formatTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A custom template a channel chose for an event: rendered in its own language, whatever the channel's. */
export type CustomText = Text & { language: Language };

/**
 * Renders the event's text with `time` filled from `at`: the channel's custom template for the event when it chose
 * one (`custom`), else the default template in the channel's language, a monitor's events picking theirs by
 * `monitorType` (see `textFor`). Values are filled in as plain text; a channel that shows HTML escapes the result.
 */
export function buildMessage(
  event: NotificationEvent,
  channelLanguage: Language,
  vars: MessageVars,
  target: NotificationMessage['target'],
  at: Date,
  monitorType?: MonitorType,
  custom?: CustomText,
): NotificationMessage {
  const language = custom?.language ?? channelLanguage;
  const text = custom ?? textFor(event, language, monitorType);
  const all = { ...inLanguage(vars, language), time: formatTime(at) };
  return {
    event,
    severity: SEVERITY[event],
    subject: render(text.subject, all),
    text: render(text.content, all),
    target,
    at: at.toISOString(),
  };
}

/** What a monitor's down and recovery texts say of it. */
export type MonitorVarsSource = Pick<MonitorDto, 'name' | 'url' | 'expected_status' | 'type' | 'hostname' | 'port' | 'dns_record_type'>;

/**
 * The variables of a monitor's down and recovery: `type` and `target` (as the monitor list reads it, a push monitor's
 * being the heartbeat) for every type, and the HTTP ones (`url`, `status_code`, `expected_status`) kept as they were.
 * `url` comes masked from the monitor read, and a database monitor's target is the host and port read out of its
 * connection string, so no secret reaches a message.
 */
export function monitorVars(
  monitor: MonitorVarsSource,
  check: Pick<CheckDto, 'status_code' | 'response_time' | 'error'>,
  previous: MonitorStatus,
  status: MonitorStatus,
): MessageVars {
  return {
    name: monitor.name,
    status,
    previous_status: previous,
    type: TYPE_NAMES[monitor.type],
    target: readableTarget(monitor) ?? targetlessName(monitor.type),
    url: monitor.url,
    response_time: check.response_time,
    status_code: check.status_code,
    expected_status: monitor.expected_status,
    error: check.error,
  };
}

/** What every agent event says of the host. */
export function agentVars(agent: AgentDto): MessageVars {
  return { name: agent.name, hostname: agent.hostname, ip_addresses: agent.ip_addresses.join(', '), os: agent.os };
}

function inLanguage(vars: MessageVars, language: Language): Parameters<typeof render>[1] {
  return Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [name, value !== null && typeof value === 'object' ? value[language] : value]),
  );
}

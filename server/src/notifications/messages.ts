import type { NotificationMessage } from './providers';
import { render, textFor, type Language, type NotificationEvent } from './templates';

export type MessageVars = Record<string, string | number | null | undefined>;

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
  'certificate.expiring': 'alert',
  'certificate.expired': 'alert',
  test: 'info',
};

/** `2026-11-23 08:15:02 UTC`: the server's zone means nothing to the reader, so times are given in UTC and say so. */
export function formatTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Renders an event's default template in the channel's language, with `time` filled from `at`. */
export function buildMessage(
  event: NotificationEvent,
  language: Language,
  vars: MessageVars,
  target: NotificationMessage['target'],
  at: Date,
): NotificationMessage {
  const text = textFor(event, language);
  const all = { ...vars, time: formatTime(at) };
  return {
    event,
    severity: SEVERITY[event],
    subject: render(text.subject, all),
    text: render(text.content, all),
    target,
    at: at.toISOString(),
  };
}

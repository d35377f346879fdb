import type { NotificationMessage } from './providers';
import type { Language } from './templates';

/** Names in a grouped subject; the body lists every one. */
const SUBJECT_NAMES = 10;

/** How the subject counts each kind of transition, in each language. */
const KINDS: Array<{ events: string[]; en: (n: number) => string; zh: (n: number) => string }> = [
  { events: ['monitor.down'], en: (n) => `${n} ${n === 1 ? 'monitor' : 'monitors'} down`, zh: (n) => `${n} 个监控故障` },
  { events: ['monitor.recovery'], en: (n) => `${n} recovered`, zh: (n) => `${n} 个监控恢复` },
  { events: ['agent.offline'], en: (n) => `${n} ${n === 1 ? 'agent' : 'agents'} offline`, zh: (n) => `${n} 台服务器离线` },
  { events: ['agent.recovery'], en: (n) => `${n} back online`, zh: (n) => `${n} 台服务器恢复在线` },
  { events: ['monitor.degraded'], en: (n) => `${n} degraded`, zh: (n) => `${n} 个监控性能下降` },
];

/**
 * One message standing for several of a channel's notifications (a storm within its grouping window): the subject
 * counts them by kind and names the first few targets ("5 monitors down, 2 recovered: a, b, c …"), the text has one
 * line per notification (its own subject and time), so every transition is named; `items` keeps each one whole for
 * channels that carry structure (the webhook). An alert among them makes the whole an alert.
 */
export function combineMessages(messages: NotificationMessage[], language: Language): NotificationMessage {
  if (messages.length === 1) return messages[0];
  const counted = new Set<NotificationMessage>();
  const parts: string[] = [];
  for (const kind of KINDS) {
    const matching = messages.filter((m) => kind.events.includes(m.event));
    matching.forEach((m) => counted.add(m));
    if (matching.length) parts.push(language === 'zh-CN' ? kind.zh(matching.length) : kind.en(matching.length));
  }
  const others = messages.length - counted.size;
  if (others)
    parts.push(language === 'zh-CN' ? `${others} 条其他通知` : `${others} other ${others === 1 ? 'notification' : 'notifications'}`);
  const names = [...new Set(messages.map((m) => m.target.name))];
  const shown = names.slice(0, SUBJECT_NAMES).join(language === 'zh-CN' ? '、' : ', ');
  const rest = names.length > SUBJECT_NAMES ? (language === 'zh-CN' ? ' 等' : ' …') : '';
  const separator = language === 'zh-CN' ? '，' : ', ';
  return {
    event: 'group',
    severity: messages.some((m) => m.severity === 'alert')
      ? 'alert'
      : messages.some((m) => m.severity === 'recovery')
        ? 'recovery'
        : 'info',
    subject: `${parts.join(separator)}: ${shown}${rest}`,
    text: messages.map((m) => `${m.subject} (${m.at.slice(11, 19)} UTC)`).join('\n'),
    target: { kind: messages[0].target.kind, id: null, name: shown + rest },
    at: messages[messages.length - 1].at,
    items: messages,
  };
}

import type { Language, NotificationEvent, Text } from './templates';

type AlertEvent = Extract<
  NotificationEvent,
  | 'monitor.degraded'
  | 'monitor.degraded_recovery'
  | 'monitor.flapping'
  | 'monitor.flapping_settled'
  | 'alert.reminder'
  | 'alert.escalation'
  | 'alert.acknowledged'
>;

/** The default texts of issue 29's events: degraded spells, flapping, reminders, escalation and acknowledgement. */
export const ALERT_TEXTS: Record<AlertEvent, Record<Language, Text>> = {
  'monitor.degraded': {
    'en-US': {
      subject: '[Degraded] {{name}}',
      content:
        '{{name}} answers, but slowly or with a failed soft check.\nTarget: {{target}}\nResponse time: {{response_time}} ms\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[性能下降] {{name}}',
      content: '{{name}} 可以访问，但响应缓慢或软检查未通过。\n目标：{{target}}\n响应时间：{{response_time}} ms\n时间：{{time}}',
    },
  },
  'monitor.degraded_recovery': {
    'en-US': {
      subject: '[No longer degraded] {{name}}',
      content: '{{name}} answers normally again.\nTarget: {{target}}\nResponse time: {{response_time}} ms\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[性能恢复] {{name}}',
      content: '{{name}} 已恢复正常响应。\n目标：{{target}}\n响应时间：{{response_time}} ms\n时间：{{time}}',
    },
  },
  'monitor.flapping': {
    'en-US': {
      subject: '[Flapping] {{name}}',
      content:
        '{{name}} keeps changing state; its down and recovery messages are held until it settles.\nTarget: {{target}}\nStatus now: {{status}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[状态抖动] {{name}}',
      content: '{{name}} 状态频繁变化，稳定之前不再逐次发送故障和恢复通知。\n目标：{{target}}\n当前状态：{{status}}\n时间：{{time}}',
    },
  },
  'monitor.flapping_settled': {
    'en-US': {
      subject: '[Settled] {{name}}',
      content: '{{name}} has stopped flapping.\nTarget: {{target}}\nStatus now: {{status}}\nTime: {{time}}',
    },
    'zh-CN': { subject: '[状态稳定] {{name}}', content: '{{name}} 已停止抖动。\n目标：{{target}}\n当前状态：{{status}}\n时间：{{time}}' },
  },
  'alert.reminder': {
    'en-US': {
      subject: '[Still {{alert}}] {{name}}',
      content:
        '{{name}} is still {{alert}}, for {{minutes}} minutes now (since {{since}}), and nobody has acknowledged it.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[仍未恢复：{{alert}}] {{name}}',
      content: '{{name}} 仍处于「{{alert}}」状态，已持续 {{minutes}} 分钟（自 {{since}} 起），尚无人确认。\n时间：{{time}}',
    },
  },
  'alert.escalation': {
    'en-US': {
      subject: '[Escalated] {{name}} {{alert}}',
      content:
        '{{name}} has been {{alert}} for {{minutes}} minutes (since {{since}}) without acknowledgement: escalation step {{step}}.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[告警升级] {{name}} {{alert}}',
      content: '{{name}} 处于「{{alert}}」状态已 {{minutes}} 分钟（自 {{since}} 起）仍无人确认：第 {{step}} 级升级。\n时间：{{time}}',
    },
  },
  'alert.acknowledged': {
    'en-US': {
      subject: '[Acknowledged] {{name}} {{alert}}',
      content: '{{acknowledged_by}} acknowledged the alert ({{alert}} since {{since}}).\nNote: {{note}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[已确认] {{name}} {{alert}}',
      content: '{{acknowledged_by}} 已确认告警（自 {{since}} 起「{{alert}}」）。\n备注：{{note}}\n时间：{{time}}',
    },
  },
};

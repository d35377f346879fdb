import { ALERT_TEXTS } from './alert-templates';
import { HOST_TEXTS } from './host-templates';
import { renderTemplate, type MonitorType, type NotificationEvent, type NotificationTemplateDto, type TemplateValues } from '@vigil/proto';

export { targetlessName, TYPE_NAMES, type Localized, type NotificationEvent } from '@vigil/proto';
export type Language = 'zh-CN' | 'en-US';
type MonitorEvent = 'monitor.down' | 'monitor.recovery';

export type Text = { subject: string; content: string };

/** Read-only defaults; `{{name}}`-style variables, documented in docs/decisions.md. */
const TEXTS: Record<NotificationEvent, Record<Language, Text>> = {
  'monitor.down': {
    'en-US': {
      subject: '[Down] {{name}}',
      content:
        '{{name}} is down.\nURL: {{url}}\nStatus code: {{status_code}} (expected {{expected_status}})\nError: {{error}}\nPrevious status: {{previous_status}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[故障] {{name}}',
      content:
        '{{name}} 无法访问。\n地址：{{url}}\n状态码：{{status_code}}（期望 {{expected_status}}）\n错误：{{error}}\n之前状态：{{previous_status}}\n时间：{{time}}',
    },
  },
  'monitor.recovery': {
    'en-US': {
      subject: '[Recovered] {{name}}',
      content: '{{name}} is up again.\nURL: {{url}}\nStatus code: {{status_code}}\nResponse time: {{response_time}} ms\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[恢复] {{name}}',
      content: '{{name}} 已恢复。\n地址：{{url}}\n状态码：{{status_code}}\n响应时间：{{response_time}} ms\n时间：{{time}}',
    },
  },
  'agent.offline': {
    'en-US': {
      subject: '[Offline] {{name}}',
      content:
        'Agent {{name}} ({{hostname}}, {{ip_addresses}}) is offline.\nOS: {{os}}\nPrevious status: {{previous_status}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[离线] {{name}}',
      content: '服务器 {{name}}（{{hostname}}，{{ip_addresses}}）已离线。\n系统：{{os}}\n之前状态：{{previous_status}}\n时间：{{time}}',
    },
  },
  'agent.recovery': {
    'en-US': { subject: '[Online] {{name}}', content: 'Agent {{name}} ({{hostname}}, {{ip_addresses}}) is back online.\nTime: {{time}}' },
    'zh-CN': { subject: '[上线] {{name}}', content: '服务器 {{name}}（{{hostname}}，{{ip_addresses}}）已恢复在线。\n时间：{{time}}' },
  },
  'agent.cpu_high': thresholdText('CPU', 'CPU'),
  'agent.memory_high': thresholdText('Memory', '内存'),
  'agent.disk_high': thresholdText('Disk', '磁盘'),
  'agent.cpu_recovery': recoveryText('CPU', 'CPU'),
  'agent.memory_recovery': recoveryText('Memory', '内存'),
  'agent.disk_recovery': recoveryText('Disk', '磁盘'),
  ...HOST_TEXTS,
  'certificate.expiring': {
    'en-US': {
      subject: '[Certificate expiring] {{name}}',
      content:
        'The TLS certificate of {{name}} expires on {{expires_at}}.\nDays remaining: {{days_remaining}} (alert at {{threshold}} days)\nTarget: {{target}}\nIssuer: {{issuer}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[证书即将过期] {{name}}',
      content:
        '{{name}} 的 TLS 证书将于 {{expires_at}} 过期。\n剩余天数：{{days_remaining}}（提醒阈值 {{threshold}} 天）\n目标：{{target}}\n颁发者：{{issuer}}\n时间：{{time}}',
    },
  },
  // Sent only while the check ignores TLS errors and so stays up; otherwise the down alert names the expiry.
  'certificate.expired': {
    'en-US': {
      subject: '[Certificate expired] {{name}}',
      content:
        'The TLS certificate of {{name}} expired on {{expires_at}}. The monitor ignores TLS errors, so it stays up.\nTarget: {{target}}\nIssuer: {{issuer}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[证书已过期] {{name}}',
      content:
        '{{name}} 的 TLS 证书已于 {{expires_at}} 过期。该监控忽略 TLS 错误，因此仍显示为正常。\n目标：{{target}}\n颁发者：{{issuer}}\n时间：{{time}}',
    },
  },
  'domain.expiring': {
    'en-US': {
      subject: '[Domain expiring] {{name}}',
      content:
        'The registration of {{domain}} expires on {{expires_at}}: renew it with its registrar.\nDays remaining: {{days_remaining}} (alert at {{threshold}} days)\nMonitor: {{name}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[域名即将到期] {{name}}',
      content:
        '域名 {{domain}} 的注册将于 {{expires_at}} 到期，请向注册商续费。\n剩余天数：{{days_remaining}}（提醒阈值 {{threshold}} 天）\n监控：{{name}}\n时间：{{time}}',
    },
  },
  // Sent once per registration, beside the down alert: the monitor exists for this date (docs/decisions.md, issue 33).
  'domain.expired': {
    'en-US': {
      subject: '[Domain expired] {{name}}',
      content:
        'The registration of {{domain}} expired on {{expires_at}}: renew it with its registrar before the name is released.\nMonitor: {{name}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[域名已到期] {{name}}',
      content: '域名 {{domain}} 的注册已于 {{expires_at}} 到期，请在域名被释放前向注册商续费。\n监控：{{name}}\n时间：{{time}}',
    },
  },
  ...ALERT_TEXTS,
  // A maintenance window's notices (`notify`): one each when an occurrence starts and ends, to the covered targets' channels.
  'maintenance.started': {
    'en-US': {
      subject: '[Maintenance started] {{name}}',
      content:
        'Planned maintenance "{{name}}" has started.\nCovers: {{covers}}\nEnds: {{end}}\nChecks go on; alerts about what it covers are held until it ends.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[维护开始] {{name}}',
      content: '计划维护「{{name}}」已开始。\n范围：{{covers}}\n结束：{{end}}\n检查照常进行，维护结束前不发送相关告警。\n时间：{{time}}',
    },
  },
  'maintenance.ended': {
    'en-US': {
      subject: '[Maintenance ended] {{name}}',
      content:
        'Planned maintenance "{{name}}" has ended.\nCovers: {{covers}}\nStarted: {{start}}\nAlerts are sent again: anything still failing alerts now.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[维护结束] {{name}}',
      content: '计划维护「{{name}}」已结束。\n范围：{{covers}}\n开始：{{start}}\n恢复发送告警：仍然异常的项目将立即告警。\n时间：{{time}}',
    },
  },
  test: {
    'en-US': {
      subject: 'Vigil test notification',
      content: 'This is a test message from Vigil for channel {{name}}. If you can read it, the channel works.\nTime: {{time}}',
    },
    'zh-CN': { subject: 'Vigil 测试通知', content: '这是 Vigil 发给渠道 {{name}} 的测试消息。收到即说明渠道可用。\n时间：{{time}}' },
  },
};

/**
 * The monitor texts of every type but HTTP: such a check has no status code to report, so they name the type and the
 * target (`db:5432`, `example.com MX`, the heartbeat) instead; the error names what failed.
 */
const TARGET_TEXTS: Record<MonitorEvent, Record<Language, Text>> = {
  'monitor.down': {
    'en-US': {
      subject: '[Down] {{name}}',
      content:
        '{{name}} is down.\nType: {{type}}\nTarget: {{target}}\nError: {{error}}\nPrevious status: {{previous_status}}\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[故障] {{name}}',
      content: '{{name}} 无法访问。\n类型：{{type}}\n目标：{{target}}\n错误：{{error}}\n之前状态：{{previous_status}}\n时间：{{time}}',
    },
  },
  'monitor.recovery': {
    'en-US': {
      subject: '[Recovered] {{name}}',
      content: '{{name}} is up again.\nType: {{type}}\nTarget: {{target}}\nResponse time: {{response_time}} ms\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[恢复] {{name}}',
      content: '{{name}} 已恢复。\n类型：{{type}}\n目标：{{target}}\n响应时间：{{response_time}} ms\n时间：{{time}}',
    },
  },
};

function thresholdText(en: string, zh: string): Record<Language, Text> {
  return {
    'en-US': {
      subject: `[${en} high] {{name}}`,
      content: `${en} use on {{name}} ({{hostname}}) is {{value}}%, above the {{threshold}}% threshold.\nTime: {{time}}`,
    },
    'zh-CN': {
      subject: `[${zh}告警] {{name}}`,
      content: `{{name}}（{{hostname}}）的${zh}使用率为 {{value}}%，超过阈值 {{threshold}}%。\n时间：{{time}}`,
    },
  };
}

function recoveryText(en: string, zh: string): Record<Language, Text> {
  return {
    'en-US': {
      subject: `[${en} normal] {{name}}`,
      content: `${en} use on {{name}} ({{hostname}}) is back to {{value}}%, below the {{threshold}}% threshold.\nTime: {{time}}`,
    },
    'zh-CN': {
      subject: `[${zh}恢复] {{name}}`,
      content: `{{name}}（{{hostname}}）的${zh}使用率已回落到 {{value}}%，低于阈值 {{threshold}}%。\n时间：{{time}}`,
    },
  };
}

/** Fills `{{variable}}` placeholders; unknown or empty ones become '-' (the one renderer, shared with the client). */
export function render(template: string, vars: TemplateValues): string {
  return renderTemplate(template, vars);
}

/** The default text of an event; a monitor's events read differently for HTTP monitors and the other types. */
export function textFor(event: NotificationEvent, language: Language, monitorType?: MonitorType): Text {
  if (monitorType && monitorType !== 'http' && isMonitorEvent(event)) return TARGET_TEXTS[event][language];
  return TEXTS[event][language];
}

const isMonitorEvent = (event: NotificationEvent): event is MonitorEvent => event in TARGET_TEXTS;

/** The defaults as the API lists them (read-only), a monitor event's HTTP text followed by the other types'. */
export function defaultTemplates(): NotificationTemplateDto[] {
  let id = 0;
  const variants = (event: NotificationEvent): Array<{ texts: Record<Language, Text>; label: string }> =>
    isMonitorEvent(event)
      ? [
          { texts: TEXTS[event], label: 'HTTP, ' },
          { texts: TARGET_TEXTS[event], label: 'other types, ' },
        ]
      : [{ texts: TEXTS[event], label: '' }];
  return (Object.keys(TEXTS) as NotificationEvent[]).flatMap((event) =>
    variants(event).flatMap(({ texts, label }) =>
      (['zh-CN', 'en-US'] as Language[]).map((language) => ({
        id: (id += 1),
        name: `${event} (${label}${language})`,
        type: event,
        language,
        subject: texts[language].subject,
        content: texts[language].content,
        is_default: true,
      })),
    ),
  );
}

import type { Language, Text } from './templates';

type HostEvent = `agent.${'load' | 'temperature' | 'disk_io' | 'bandwidth'}_${'high' | 'recovery'}`;

/** Issue 32's host thresholds: each text names the host, the item (sensor, disk, interface) and the figure. */
export const HOST_TEXTS: Record<HostEvent, Record<Language, Text>> = {
  'agent.load_high': {
    'en-US': {
      subject: '[Load high] {{name}}',
      content: 'Load on {{name}} ({{hostname}}) is {{value}}% of its CPU cores, above the {{threshold}}% threshold.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[负载告警] {{name}}',
      content: '{{name}}（{{hostname}}）的负载为 CPU 核数的 {{value}}%，超过阈值 {{threshold}}%。\n时间：{{time}}',
    },
  },
  'agent.load_recovery': {
    'en-US': {
      subject: '[Load normal] {{name}}',
      content:
        'Load on {{name}} ({{hostname}}) is back to {{value}}% of its CPU cores, below the {{threshold}}% threshold.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[负载恢复] {{name}}',
      content: '{{name}}（{{hostname}}）的负载已回落到 CPU 核数的 {{value}}%，低于阈值 {{threshold}}%。\n时间：{{time}}',
    },
  },
  'agent.temperature_high': {
    'en-US': {
      subject: '[Temperature high] {{name}}',
      content: 'Sensor {{item}} on {{name}} ({{hostname}}) reads {{value}} °C, above the {{threshold}} °C threshold.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[温度告警] {{name}}',
      content: '{{name}}（{{hostname}}）的传感器 {{item}} 温度为 {{value}} °C，超过阈值 {{threshold}} °C。\n时间：{{time}}',
    },
  },
  'agent.temperature_recovery': {
    'en-US': {
      subject: '[Temperature normal] {{name}}',
      content:
        'Every sensor on {{name}} ({{hostname}}) is back at or below {{threshold}} °C (hottest {{item}}: {{value}} °C).\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[温度恢复] {{name}}',
      content: '{{name}}（{{hostname}}）的所有传感器已回落到阈值 {{threshold}} °C 以下（最高 {{item}}：{{value}} °C）。\n时间：{{time}}',
    },
  },
  'agent.disk_io_high': {
    'en-US': {
      subject: '[Disk I/O busy] {{name}}',
      content: 'Disk {{item}} on {{name}} ({{hostname}}) is {{value}}% busy, above the {{threshold}}% threshold.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[磁盘 I/O 告警] {{name}}',
      content: '{{name}}（{{hostname}}）的磁盘 {{item}} 繁忙度为 {{value}}%，超过阈值 {{threshold}}%。\n时间：{{time}}',
    },
  },
  'agent.disk_io_recovery': {
    'en-US': {
      subject: '[Disk I/O normal] {{name}}',
      content:
        'Every disk on {{name}} ({{hostname}}) is back at or below {{threshold}}% busy (busiest {{item}}: {{value}}%).\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[磁盘 I/O 恢复] {{name}}',
      content: '{{name}}（{{hostname}}）的所有磁盘繁忙度已回落到阈值 {{threshold}}% 以下（最忙 {{item}}：{{value}}%）。\n时间：{{time}}',
    },
  },
  'agent.bandwidth_high': {
    'en-US': {
      subject: '[Bandwidth high] {{name}}',
      content:
        'Interface {{item}} on {{name}} ({{hostname}}) carries {{value}} KB/s, above the {{threshold}} KB/s threshold.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[带宽告警] {{name}}',
      content: '{{name}}（{{hostname}}）的网卡 {{item}} 流量为 {{value}} KB/s，超过阈值 {{threshold}} KB/s。\n时间：{{time}}',
    },
  },
  'agent.bandwidth_recovery': {
    'en-US': {
      subject: '[Bandwidth normal] {{name}}',
      content:
        'Every interface on {{name}} ({{hostname}}) is back at or below {{threshold}} KB/s (busiest {{item}}: {{value}} KB/s).\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[带宽恢复] {{name}}',
      content:
        '{{name}}（{{hostname}}）的所有网卡流量已回落到阈值 {{threshold}} KB/s 以下（最忙 {{item}}：{{value}} KB/s）。\n时间：{{time}}',
    },
  },
};

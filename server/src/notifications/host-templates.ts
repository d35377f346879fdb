import type { Language, Text } from './templates';

type HostEvent =
  | `agent.${'load' | 'temperature' | 'disk_io' | 'bandwidth'}_${'high' | 'recovery'}`
  | `agent.container_${'down' | 'recovery' | 'unhealthy' | 'healthy'}`
  | `agent.service_${'failed' | 'recovery'}`;

/**
 * Issue 32's host alerts: each text names the host and the item (sensor, disk, interface, container, unit), the
 * thresholds' the figure, the containers' and units' the state they were seen in.
 */
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
  'agent.container_down': {
    'en-US': {
      subject: '[Container down] {{item}} on {{name}}',
      content: 'Container {{item}} ({{image}}) on {{name}} ({{hostname}}) is no longer running: {{state}}.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[容器停止] {{name}} 上的 {{item}}',
      content: '{{name}}（{{hostname}}）上的容器 {{item}}（{{image}}）已不在运行：{{state}}。\n时间：{{time}}',
    },
  },
  'agent.container_recovery': {
    'en-US': {
      subject: '[Container running] {{item}} on {{name}}',
      content: 'Container {{item}} ({{image}}) on {{name}} ({{hostname}}) is running again.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[容器恢复] {{name}} 上的 {{item}}',
      content: '{{name}}（{{hostname}}）上的容器 {{item}}（{{image}}）已恢复运行。\n时间：{{time}}',
    },
  },
  'agent.container_unhealthy': {
    'en-US': {
      subject: '[Container unhealthy] {{item}} on {{name}}',
      content: 'The health check of container {{item}} ({{image}}) on {{name}} ({{hostname}}) reports it unhealthy.\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[容器不健康] {{name}} 上的 {{item}}',
      content: '{{name}}（{{hostname}}）上的容器 {{item}}（{{image}}）健康检查结果为不健康。\n时间：{{time}}',
    },
  },
  'agent.container_healthy': {
    'en-US': {
      subject: '[Container healthy] {{item}} on {{name}}',
      content: 'Container {{item}} ({{image}}) on {{name}} ({{hostname}}) is no longer unhealthy (health: {{health}}).\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[容器健康恢复] {{name}} 上的 {{item}}',
      content: '{{name}}（{{hostname}}）上的容器 {{item}}（{{image}}）已不再是不健康状态（健康状态：{{health}}）。\n时间：{{time}}',
    },
  },
  'agent.service_failed': {
    'en-US': {
      subject: '[Service failed] {{item}} on {{name}}',
      content: 'Unit {{item}} on {{name}} ({{hostname}}) has failed ({{state}}, {{sub_state}}).\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[服务失败] {{name}} 上的 {{item}}',
      content: '{{name}}（{{hostname}}）上的服务单元 {{item}} 已失败（{{state}}，{{sub_state}}）。\n时间：{{time}}',
    },
  },
  'agent.service_recovery': {
    'en-US': {
      subject: '[Service recovered] {{item}} on {{name}}',
      content: 'Unit {{item}} on {{name}} ({{hostname}}) is no longer failed ({{state}}, {{sub_state}}).\nTime: {{time}}',
    },
    'zh-CN': {
      subject: '[服务恢复] {{name}} 上的 {{item}}',
      content: '{{name}}（{{hostname}}）上的服务单元 {{item}} 已不再是失败状态（{{state}}，{{sub_state}}）。\n时间：{{time}}',
    },
  },
};

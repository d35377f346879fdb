import { hostPort, settingText, type MonitorTypeSpec } from '../monitor-type-specs';

export const MQTT_PROTOCOLS = ['mqtt', 'mqtts', 'ws', 'wss'] as const;
export type MqttProtocol = (typeof MQTT_PROTOCOLS)[number];

/**
 * Uptime Kuma's check types: `keyword` (the message contains mqttSuccessMessage; empty: any message) and
 * `json-query` (the message is JSON; Kuma's `jsonPath` and `expectedValue` become a jsonPath assertion here).
 * `none` is ours: any message, judged by the assertions alone.
 */
export const MQTT_CHECK_TYPES = ['keyword', 'json-query', 'none'] as const;
export type MqttCheckType = (typeof MQTT_CHECK_TYPES)[number];

/** A topic filter: levels split by `/`, `+` alone in a level, `#` alone in the last one, no NUL (MQTT 3.1.1 §4.7). */
export function isMqttTopicFilter(topic: string): boolean {
  if (topic === '' || topic.includes('\u0000')) return false;
  const levels = topic.split('/');
  return levels.every(
    (level, index) => (level === '#' && index === levels.length - 1) || level === '+' || (!level.includes('#') && !level.includes('+')),
  );
}

const hasWildcard = (topic: string): boolean => /[+#]/.test(topic);

/** Kuma's rule for the WebSocket path (`/mqtt`), with nested paths and dots allowed. */
const WEBSOCKET_PATH = /^\/[A-Za-z0-9\-_.~&()*+/]*$/;

/**
 * MQTT, with Uptime Kuma's field names so an import maps one to one. Kuma keeps the scheme in `hostname`
 * (`wss://broker`); here it is `mqttProtocol` and `hostname` is the bare host. A check connects, subscribes to the topic,
 * optionally publishes `mqttPublishMessage` to it, and waits for a live (not retained) message within the timeout.
 */
export const MQTT = {
  name: { 'en-US': 'MQTT', 'zh-CN': 'MQTT' },
  fields: [
    { name: 'mqttProtocol', kind: 'select', options: MQTT_PROTOCOLS, default: 'mqtt', help: true },
    { name: 'hostname', kind: 'text', required: true, column: 'hostname' },
    { name: 'port', kind: 'number', column: 'port', default: 1883, min: 1, max: 65_535 },
    { name: 'mqttWebsocketPath', kind: 'text', max: 200, valid: (path) => WEBSOCKET_PATH.test(path), placeholder: '/mqtt', help: true },
    { name: 'mqttUsername', kind: 'text', max: 200 },
    { name: 'mqttPassword', kind: 'secret', max: 500 },
    {
      name: 'mqttTopic',
      kind: 'text',
      required: true,
      max: 500,
      valid: isMqttTopicFilter,
      placeholder: 'sensors/+/status',
      help: true,
      codes: { invalid: 'monitors.mqttTopicInvalid' },
    },
    { name: 'mqttPublishMessage', kind: 'text', max: 500, help: true },
    { name: 'mqttCheckType', kind: 'select', options: MQTT_CHECK_TYPES, default: 'keyword', help: true },
    { name: 'mqttSuccessMessage', kind: 'text', max: 500, help: true },
    { name: 'ignoreTls', kind: 'boolean', default: false },
  ],
  // A message can only be published to a topic name, not to a filter.
  check: (config) =>
    config.mqttPublishMessage && hasWildcard(String(config.mqttTopic ?? ''))
      ? { field: 'mqttPublishMessage', code: 'monitors.mqttPublishWildcard' }
      : null,
  sources: ['responseTime', 'body', 'jsonPath', 'certificateDays'],
  target: (parts) => {
    const web = ['ws', 'wss'].includes(settingText(parts, 'mqttProtocol'));
    const path = web ? settingText(parts, 'mqttWebsocketPath') : '';
    return `${hostPort(parts.hostname, parts.port)}${path} ${settingText(parts, 'mqttTopic')}`;
  },
  icon: 'broadcast',
  certificates: true,
} as const satisfies MonitorTypeSpec;

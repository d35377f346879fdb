import { hostPort, settingText, type MonitorTypeSpec } from '../monitor-type-specs';

/** AMQP 0-9-1 queue names: at most 255 characters of letters, digits, `-`, `_`, `.` and `:` (RabbitMQ's rule). */
const QUEUE_NAME = /^[A-Za-z0-9_.:-]{1,255}$/;

/**
 * An AMQP 0-9-1 broker (RabbitMQ): it is up when a connection opens with the credentials and vhost; with a queue,
 * that queue must exist (a passive declare) and its ready messages and consumers become `queueDepth` and `consumers`.
 */
export const AMQP = {
  name: { 'en-US': 'AMQP (RabbitMQ)', 'zh-CN': 'AMQP（RabbitMQ）' },
  fields: [
    { name: 'hostname', kind: 'text', required: true, column: 'hostname', placeholder: 'rabbitmq.example.com' },
    { name: 'port', kind: 'number', column: 'port', default: 5672, min: 1, max: 65_535 },
    { name: 'amqpUsername', kind: 'text', max: 255, placeholder: 'guest' },
    { name: 'amqpPassword', kind: 'secret', max: 255 },
    { name: 'amqpVhost', kind: 'text', default: '/', max: 255 },
    {
      name: 'amqpQueue',
      kind: 'text',
      max: 255,
      valid: (value) => QUEUE_NAME.test(value),
      codes: { invalid: 'monitors.amqpQueueInvalid' },
      help: true,
    },
    { name: 'amqpTls', kind: 'boolean', default: false },
    { name: 'ignoreTls', kind: 'boolean', default: false },
  ],
  sources: ['responseTime', 'queueDepth', 'consumers', 'certificateDays'],
  target: (parts) => {
    const vhost = settingText(parts, 'amqpVhost');
    const queue = settingText(parts, 'amqpQueue');
    const broker = hostPort(parts.hostname, parts.port) + (vhost && vhost !== '/' ? `/${vhost}` : '');
    return queue ? `${broker} ${queue}` : broker;
  },
  icon: 'arrows-shuffle',
  certificates: true,
} as const satisfies MonitorTypeSpec;

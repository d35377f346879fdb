import { hostPort, settingText, type MonitorTypeSpec } from '../monitor-type-specs';

/** A subject one publishes to: dot-separated tokens without spaces or wildcards. */
const SUBJECT = /^[^\s.*>]+(?:\.[^\s.*>]+)*$/;
/** JetStream stream and consumer names: no spaces, dots, wildcards or path separators. */
const JETSTREAM_NAME = /^[^\s.*>/\\]{1,255}$/;
const JETSTREAM_CODES = { invalid: 'monitors.jetStreamNameInvalid' } as const;

/**
 * A NATS server: it is up when a connection opens with the credentials (user and password, or a token). Optionally a
 * request to `natsSubject` must be answered (its text is `body` for the assertions), and a JetStream consumer's
 * pending messages become `streamLag`.
 */
export const NATS = {
  name: { 'en-US': 'NATS', 'zh-CN': 'NATS' },
  fields: [
    { name: 'hostname', kind: 'text', required: true, column: 'hostname', placeholder: 'nats.example.com' },
    { name: 'port', kind: 'number', column: 'port', default: 4222, min: 1, max: 65_535 },
    { name: 'natsUsername', kind: 'text', max: 255 },
    { name: 'natsPassword', kind: 'secret', max: 255 },
    { name: 'natsToken', kind: 'secret', max: 500 },
    { name: 'natsTls', kind: 'boolean', default: false },
    { name: 'ignoreTls', kind: 'boolean', default: false },
    {
      name: 'natsSubject',
      kind: 'text',
      max: 255,
      valid: (value) => SUBJECT.test(value),
      codes: { invalid: 'monitors.natsSubjectInvalid' },
      placeholder: 'service.health',
      help: true,
    },
    { name: 'natsRequestBody', kind: 'text', max: 4096 },
    { name: 'natsStream', kind: 'text', max: 255, valid: (value) => JETSTREAM_NAME.test(value), codes: JETSTREAM_CODES, help: true },
    { name: 'natsConsumer', kind: 'text', max: 255, valid: (value) => JETSTREAM_NAME.test(value), codes: JETSTREAM_CODES },
  ],
  sources: ['responseTime', 'body', 'jsonPath', 'streamLag', 'certificateDays'],
  check: (config) => {
    if (config.natsUsername !== undefined && config.natsToken !== undefined) return { field: 'natsToken', code: 'monitors.natsAuthOne' };
    if (config.natsRequestBody !== undefined && config.natsSubject === undefined) {
      return { field: 'natsSubject', code: 'monitors.natsRequestSubject' };
    }
    if ((config.natsStream === undefined) !== (config.natsConsumer === undefined)) {
      return { field: config.natsStream === undefined ? 'natsStream' : 'natsConsumer', code: 'monitors.natsStreamConsumer' };
    }
    return null;
  },
  target: (parts) => {
    const subject = settingText(parts, 'natsSubject');
    const stream = settingText(parts, 'natsStream');
    const consumer = settingText(parts, 'natsConsumer');
    const extras = [subject, stream && `${stream}/${consumer}`].filter(Boolean);
    return [hostPort(parts.hostname, parts.port), ...extras].join(' ');
  },
  icon: 'topology-star-3',
  certificates: true,
} as const satisfies MonitorTypeSpec;

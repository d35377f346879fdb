/**
 * Every notification channel type, declared once: its fields, which are secrets, its rules and its hosted service's
 * address. The server's validation, masking and "kept when the mask comes back", the client's form and the messages
 * naming the types all derive from this table; a type's server code is only its provider (send, destination).
 */
import {
  CHANNEL_RULES,
  isEmail,
  isSender,
  validateFields,
  type ChannelFieldSpec,
  type ChannelSpec,
  type ChannelValidation,
} from './channel-fields';

export * from './channel-fields';

/** A webhook address that names the robot: whoever holds it can post, so it is a secret. */
const ROBOT_URL = {
  name: 'webhookUrl',
  kind: 'url',
  required: true,
  secret: true,
  codes: {
    required: 'notifications.webhookUrlRequired',
    invalid: 'notifications.webhookUrlInvalid',
    reenter: 'notifications.webhookUrlReenter',
  },
} as const;
const SIGNING_SECRET = {
  name: 'secret',
  kind: 'secret',
  max: 200,
  valid: (value: string) => CHANNEL_RULES.signingSecret.test(value),
  codes: { invalid: 'notifications.secretInvalid', reenter: 'notifications.secretReenter' },
} as const;
const EMAILS = { kind: 'list', valid: isEmail, codes: { invalid: 'notifications.recipientInvalid' } } as const;
const SENDER = {
  name: 'from',
  kind: 'text',
  required: true,
  valid: isSender,
  codes: { required: 'notifications.senderRequired', invalid: 'notifications.senderInvalid' },
} as const;
/** The address of a service the user runs (ntfy, Gotify, Matrix…): its tokens only ever go there. */
const SERVER_URL = { name: 'serverUrl', kind: 'url', required: true } as const;
// Always required: a `required` parameter would be inferred inside CHANNEL_SPECS as `boolean`, typing every token as
// optional; an optional token spreads this and sets `required: false`.
const TOKEN = <N extends string>(name: N) =>
  ({ name, kind: 'secret', required: true, valid: (value: string) => CHANNEL_RULES.token.test(value) }) as const;
const pattern = (rule: RegExp) => (value: string) => rule.test(value);

export const CHANNEL_SPECS = {
  smtp: {
    family: 'email',
    fields: [
      { name: 'host', kind: 'text', required: true, max: 253, valid: pattern(CHANNEL_RULES.host), placeholder: 'smtp.example.com' },
      { name: 'port', kind: 'number', default: 587, min: 1, max: 65535 },
      { name: 'security', kind: 'select', options: ['starttls', 'tls', 'none'], default: 'starttls', help: true },
      { name: 'username', kind: 'text', max: 320 },
      { name: 'password', kind: 'secret', max: 500 },
      SENDER,
      {
        name: 'to',
        ...EMAILS,
        required: true,
        codes: { required: 'notifications.recipientRequired', invalid: 'notifications.recipientInvalid' },
      },
      { name: 'cc', ...EMAILS },
      { name: 'bcc', ...EMAILS },
      { name: 'tlsInsecure', kind: 'boolean', default: false, help: true },
    ],
    check: (config) =>
      config.password !== undefined && config.username === undefined ? { field: 'username', code: 'notifications.fieldRequired' } : null,
  },
  resend: {
    family: 'email',
    apiUrl: 'https://api.resend.com',
    fields: [
      {
        name: 'apiKey',
        kind: 'secret',
        required: true,
        placeholder: 're_…',
        codes: { required: 'notifications.apiKeyRequired', reenter: 'notifications.apiKeyReenter' },
      },
      { ...SENDER, placeholder: 'Vigil <alerts@example.com>' },
      {
        name: 'to',
        ...EMAILS,
        required: true,
        codes: { required: 'notifications.recipientRequired', invalid: 'notifications.recipientInvalid' },
      },
    ],
  },
  telegram: {
    family: 'chat',
    apiUrl: 'https://api.telegram.org',
    fields: [
      {
        name: 'botToken',
        kind: 'secret',
        required: true,
        placeholder: '123456789:AAF…',
        valid: pattern(CHANNEL_RULES.botToken),
        codes: {
          required: 'notifications.botTokenRequired',
          invalid: 'notifications.botTokenInvalid',
          reenter: 'notifications.botTokenReenter',
        },
      },
      // Ids (-100…), @channel names and future forms are Telegram's to judge.
      { name: 'chatId', kind: 'text', required: true, placeholder: '-1001234567890', codes: { required: 'notifications.chatIdRequired' } },
    ],
  },
  slack: { family: 'chat', fields: [{ ...ROBOT_URL, placeholder: 'https://hooks.slack.com/services/…' }] },
  discord: {
    family: 'chat',
    fields: [
      { ...ROBOT_URL, placeholder: 'https://discord.com/api/webhooks/…' },
      { name: 'username', kind: 'text', max: 80 },
    ],
  },
  teams: { family: 'chat', fields: [{ ...ROBOT_URL, help: true, placeholder: 'https://prod-00.westus.logic.azure.com/workflows/…' }] },
  googlechat: { family: 'chat', fields: [{ ...ROBOT_URL, placeholder: 'https://chat.googleapis.com/v1/spaces/…/messages?key=…' }] },
  mattermost: {
    family: 'chat',
    fields: [
      { ...ROBOT_URL, placeholder: 'https://mattermost.example.com/hooks/…' },
      { name: 'channel', kind: 'text', max: 64 },
      { name: 'username', kind: 'text', max: 64 },
    ],
  },
  rocketchat: {
    family: 'chat',
    fields: [
      { ...ROBOT_URL, placeholder: 'https://chat.example.com/hooks/…' },
      { name: 'channel', kind: 'text', max: 64 },
      { name: 'username', kind: 'text', max: 64 },
    ],
  },
  matrix: {
    family: 'chat',
    fields: [
      { name: 'homeserverUrl', kind: 'url', required: true, placeholder: 'https://matrix.org' },
      TOKEN('accessToken'),
      { name: 'roomId', kind: 'text', required: true, placeholder: '!abcdef:matrix.org', valid: pattern(/^[!#][^\s:]+:\S+$/), help: true },
    ],
  },
  dingtalk: {
    family: 'chat',
    fields: [
      { ...ROBOT_URL, placeholder: 'https://oapi.dingtalk.com/robot/send?access_token=…' },
      { ...SIGNING_SECRET, placeholder: 'SEC…' },
    ],
  },
  wecom: { family: 'chat', fields: [{ ...ROBOT_URL, placeholder: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…' }] },
  feishu: { family: 'chat', fields: [{ ...ROBOT_URL, placeholder: 'https://open.feishu.cn/open-apis/bot/v2/hook/…' }, SIGNING_SECRET] },
  line: {
    family: 'chat',
    apiUrl: 'https://api.line.me',
    fields: [
      TOKEN('channelAccessToken'),
      { name: 'to', kind: 'text', required: true, max: 64, valid: pattern(/^[UCR][0-9a-f]{32}$/), help: true },
    ],
  },
  signal: {
    family: 'chat',
    fields: [
      { ...SERVER_URL, placeholder: 'http://signal-cli:8080', help: true },
      { name: 'number', kind: 'text', required: true, valid: pattern(/^\+\d{6,15}$/), placeholder: '+4915112345678' },
      { name: 'recipients', kind: 'list', required: true, valid: pattern(/^(?:\+\d{6,15}|group\.[A-Za-z0-9+/=]{8,200})$/) },
    ],
  },
  ntfy: {
    family: 'push',
    fields: [
      { ...SERVER_URL, default: 'https://ntfy.sh' },
      { name: 'topic', kind: 'text', required: true, max: 64, valid: pattern(/^[-_A-Za-z0-9]{1,64}$/) },
      { name: 'priority', kind: 'number', min: 1, max: 5, default: 4 },
      { ...TOKEN('token'), required: false },
    ],
  },
  gotify: {
    family: 'push',
    fields: [SERVER_URL, TOKEN('appToken'), { name: 'priority', kind: 'number', min: 0, max: 10, default: 8 }],
  },
  pushover: {
    family: 'push',
    apiUrl: 'https://api.pushover.net',
    fields: [
      { name: 'userKey', kind: 'secret', required: true, valid: pattern(/^[A-Za-z0-9]{30}$/) },
      { name: 'appToken', kind: 'secret', required: true, valid: pattern(/^[A-Za-z0-9]{30}$/) },
      { name: 'device', kind: 'text', max: 25 },
      { name: 'priority', kind: 'select', options: ['-2', '-1', '0', '1'], default: '1' },
      { name: 'sound', kind: 'text', max: 32 },
    ],
  },
  bark: {
    family: 'push',
    fields: [
      { ...SERVER_URL, default: 'https://api.day.app' },
      TOKEN('deviceKey'),
      { name: 'group', kind: 'text', max: 64 },
      { name: 'sound', kind: 'text', max: 32 },
    ],
  },
  serverchan: { family: 'push', apiUrl: 'https://sctapi.ftqq.com', fields: [TOKEN('sendKey')] },
  pushplus: {
    family: 'push',
    apiUrl: 'https://www.pushplus.plus',
    fields: [TOKEN('token'), { name: 'topic', kind: 'text', max: 64 }],
  },
  homeassistant: {
    family: 'push',
    fields: [
      { ...SERVER_URL, placeholder: 'http://homeassistant.local:8123' },
      TOKEN('accessToken'),
      {
        name: 'service',
        kind: 'text',
        required: true,
        valid: pattern(/^[a-z0-9_]{1,100}$/),
        placeholder: 'mobile_app_pixel_8',
        help: true,
      },
    ],
  },
  webpush: {
    family: 'push',
    fields: [{ name: 'audience', kind: 'select', options: ['all', 'admins'], default: 'all', help: true }],
  },
  pagerduty: {
    family: 'incident',
    apiUrl: 'https://events.pagerduty.com',
    fields: [
      { name: 'integrationKey', kind: 'secret', required: true, valid: pattern(/^[A-Za-z0-9]{32}$/), help: true },
      { name: 'severity', kind: 'select', options: ['critical', 'error', 'warning', 'info'], default: 'critical' },
    ],
  },
  opsgenie: {
    family: 'incident',
    apiUrl: 'https://api.opsgenie.com',
    fields: [
      TOKEN('apiKey'),
      { name: 'region', kind: 'select', options: ['us', 'eu'], default: 'us' },
      { name: 'priority', kind: 'select', options: ['P1', 'P2', 'P3', 'P4', 'P5'], default: 'P1' },
    ],
  },
  webhook: {
    family: 'webhook',
    fields: [
      {
        name: 'url',
        kind: 'url',
        required: true,
        placeholder: 'https://example.com/hooks/vigil',
        codes: {
          required: 'notifications.webhookUrlRequired',
          invalid: 'notifications.webhookUrlInvalid',
          reenter: 'notifications.urlCredentialsReenter',
        },
      },
      // Header values often carry an Authorization token.
      {
        name: 'headers',
        kind: 'map',
        secret: true,
        codes: { invalid: 'notifications.headersInvalid', reenter: 'notifications.headersReenter' },
      },
    ],
  },
  apprise: {
    family: 'webhook',
    fields: [
      { ...SERVER_URL, placeholder: 'http://apprise:8000', help: true },
      // Apprise URLs carry each service's tokens.
      { name: 'urls', kind: 'secret', max: 4000, help: true },
      { name: 'configKey', kind: 'text', max: 128, valid: pattern(/^[A-Za-z0-9_-]{1,128}$/), help: true },
    ],
    check: (config) =>
      config.urls === undefined && config.configKey === undefined ? { field: 'urls', code: 'notifications.fieldRequired' } : null,
  },
} as const satisfies Record<string, ChannelSpec>;

export type ChannelType = keyof typeof CHANNEL_SPECS;
/** Every channel type, in the order the type picker lists them. */
export const CHANNEL_TYPES = Object.keys(CHANNEL_SPECS) as ChannelType[];

/** `smtp, resend, telegram, …` for messages; declared with its type so the messages table need not infer it. */
export function channelTypeList(): string {
  return CHANNEL_TYPES.join(', ');
}

export function isChannelType(value: unknown): value is ChannelType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CHANNEL_SPECS, value);
}

/** The spec of a type, seen through the general shape. */
export function channelSpec(type: ChannelType): ChannelSpec {
  return CHANNEL_SPECS[type];
}

/** A type's config: checked, normalised (defaults filled, lists as arrays) and typed after its spec. */
export function validateChannelConfig<T extends ChannelType>(
  type: T,
  config: unknown,
  options?: { masked: boolean },
): { ok: true; config: ChannelConfigs[T] } | Exclude<ChannelValidation, { ok: true }> {
  return validateFields(channelSpec(type), config, options) as
    { ok: true; config: ChannelConfigs[T] } | Exclude<ChannelValidation, { ok: true }>;
}

type FieldValue<F> = F extends { kind: 'number' }
  ? number
  : F extends { kind: 'boolean' }
    ? boolean
    : F extends { kind: 'list' }
      ? string[]
      : F extends { kind: 'map' }
        ? Record<string, string>
        : F extends { kind: 'select'; options: readonly (infer O)[] }
          ? O
          : string;
type Present<F> = F extends { required: true } ? true : F extends { default: unknown } ? true : false;
type ConfigOf<Fields extends readonly ChannelFieldSpec[]> = {
  [F in Fields[number] as Present<F> extends true ? F['name'] : never]: FieldValue<F>;
} & {
  [F in Fields[number] as Present<F> extends true ? never : F['name']]?: FieldValue<F>;
};

/** Each type's validated config, as providers receive it. */
export type ChannelConfigs = { [T in ChannelType]: ConfigOf<(typeof CHANNEL_SPECS)[T]['fields']> };

import {
  CHANNEL_RULES,
  CHANNEL_TYPES,
  isHttpUrl,
  isSender,
  SECRET_MASK,
  type ChannelLanguage,
  type ChannelRequest,
  type ChannelType,
  type NotificationChannelDto,
} from '@vigil/proto';

/** A text field of a channel type's configuration. */
export interface ChannelField {
  key: string;
  /** Read back masked after saving; leaving the mask in place keeps the stored value. */
  secret?: boolean;
  required: boolean;
  placeholder?: string;
}

/** The configuration fields of each type, in the order the dialog shows them (webhook headers are edited as rows). */
export const CHANNEL_FIELDS: Record<ChannelType, readonly ChannelField[]> = {
  telegram: [
    { key: 'botToken', secret: true, required: true, placeholder: '123456789:AAF…' },
    { key: 'chatId', required: true, placeholder: '-1001234567890' },
  ],
  resend: [
    { key: 'apiKey', secret: true, required: true, placeholder: 're_…' },
    { key: 'from', required: true, placeholder: 'Vigil <alerts@example.com>' },
    { key: 'to', required: true, placeholder: 'ops@example.com, oncall@example.com' },
  ],
  webhook: [{ key: 'url', required: true, placeholder: 'https://example.com/hooks/vigil' }],
  slack: [{ key: 'webhookUrl', secret: true, required: true, placeholder: 'https://hooks.slack.com/services/…' }],
  dingtalk: [
    { key: 'webhookUrl', secret: true, required: true, placeholder: 'https://oapi.dingtalk.com/robot/send?access_token=…' },
    { key: 'secret', secret: true, required: false, placeholder: 'SEC…' },
  ],
  wecom: [{ key: 'webhookUrl', secret: true, required: true, placeholder: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…' }],
  feishu: [
    { key: 'webhookUrl', secret: true, required: true, placeholder: 'https://open.feishu.cn/open-apis/bot/v2/hook/…' },
    { key: 'secret', secret: true, required: false },
  ],
};

export interface HeaderRow {
  name: string;
  value: string;
}

export interface ChannelForm {
  name: string;
  type: ChannelType;
  enabled: boolean;
  language: ChannelLanguage;
  /** The type's text fields by key. */
  fields: Record<string, string>;
  /** Webhook only. */
  headers: HeaderRow[];
}

/** Field name → translation key of what is wrong with it. */
export type ChannelErrors = Partial<Record<string, string>>;

export const CHANNEL_NAME_MAX = 100;

export function isChannelType(value: unknown): value is ChannelType {
  return (CHANNEL_TYPES as readonly unknown[]).includes(value);
}

export function emptyChannelForm(type: ChannelType = 'telegram'): ChannelForm {
  return { name: '', type, enabled: true, language: 'zh-CN', fields: {}, headers: [] };
}

/** A new type starts from an empty configuration (spec section 4): nothing of the old type's values carries over. */
export function withType(form: ChannelForm, type: ChannelType): ChannelForm {
  return { ...form, type, fields: {}, headers: [] };
}

function parseConfig(config: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof config !== 'string') return config;
  try {
    const parsed: unknown = JSON.parse(config);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A saved channel as the dialog edits it; its secrets stay masked unless retyped. */
export function formFromChannel(channel: NotificationChannelDto): ChannelForm {
  const config = parseConfig(channel.config);
  const fields: Record<string, string> = {};
  for (const field of CHANNEL_FIELDS[channel.type] ?? []) {
    const value = config[field.key];
    if (typeof value === 'string' || typeof value === 'number') fields[field.key] = String(value);
  }
  const headers =
    channel.type === 'webhook' && typeof config.headers === 'object' && config.headers !== null
      ? Object.entries(config.headers as Record<string, unknown>).map(([name, value]) => ({ name, value: String(value) }))
      : [];
  return { name: channel.name, type: channel.type, enabled: channel.enabled, language: channel.language ?? 'zh-CN', fields, headers };
}

export function toChannelRequest(form: ChannelForm): ChannelRequest {
  const config: Record<string, unknown> = {};
  for (const field of CHANNEL_FIELDS[form.type]) {
    const value = (form.fields[field.key] ?? '').trim();
    if (value) config[field.key] = value;
  }
  if (form.type === 'webhook') {
    const headers = Object.fromEntries(form.headers.filter((row) => row.name.trim()).map((row) => [row.name.trim(), row.value]));
    if (Object.keys(headers).length > 0) config.headers = headers;
  }
  return { name: form.name.trim(), type: form.type, enabled: form.enabled, language: form.language, config: JSON.stringify(config) };
}

const kept = (value: string) => value === SECRET_MASK;

/** Spec section 5's rules (shared with the server through proto) with its messages as translation keys. */
export function validateChannel(form: ChannelForm): ChannelErrors {
  const errors: ChannelErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = 'server.notifications.channelNameRequired';
  else if (name.length > CHANNEL_NAME_MAX) errors.name = 'server.notifications.channelNameTooLong';
  const value = (key: string) => (form.fields[key] ?? '').trim();

  switch (form.type) {
    case 'telegram': {
      const token = value('botToken');
      if (!token) errors.botToken = 'server.notifications.botTokenRequired';
      else if (!kept(token) && !CHANNEL_RULES.botToken.test(token)) errors.botToken = 'server.notifications.botTokenInvalid';
      if (!value('chatId')) errors.chatId = 'server.notifications.chatIdRequired';
      break;
    }
    case 'resend': {
      if (!value('apiKey')) errors.apiKey = 'server.notifications.apiKeyRequired';
      const from = value('from');
      if (!from) errors.from = 'server.notifications.senderRequired';
      else if (!isSender(from)) errors.from = 'server.notifications.senderInvalid';
      const to = value('to');
      if (!to) errors.to = 'server.notifications.recipientRequired';
      else if (!to.split(',').every((address) => CHANNEL_RULES.email.test(address.trim())))
        errors.to = 'server.notifications.recipientInvalid';
      break;
    }
    case 'webhook': {
      const url = value('url');
      if (!url) errors.url = 'server.notifications.webhookUrlRequired';
      else if (!isHttpUrl(url)) errors.url = 'server.notifications.webhookUrlInvalid';
      if (form.headers.some((row) => row.name.trim() && !CHANNEL_RULES.headerName.test(row.name.trim())))
        errors.headers = 'server.notifications.headersInvalid';
      break;
    }
    default: {
      const url = value('webhookUrl');
      if (!url) errors.webhookUrl = 'server.notifications.webhookUrlRequired';
      else if (!kept(url) && !isHttpUrl(url)) errors.webhookUrl = 'server.notifications.webhookUrlInvalid';
      const secret = value('secret');
      if (secret && !kept(secret) && !CHANNEL_RULES.signingSecret.test(secret)) errors.secret = 'server.notifications.secretInvalid';
    }
  }
  return errors;
}

/** The spec's channel ids are positive whole numbers; anything else is refused with 'invalid id'. */
/** The server's "type this secret again" codes (a saved secret only goes where it was saved for), by form field. */
const REENTER_FIELDS: Record<string, string> = {
  'notifications.botTokenReenter': 'botToken',
  'notifications.apiKeyReenter': 'apiKey',
  'notifications.headersReenter': 'headers',
  'notifications.urlCredentialsReenter': 'url',
  'notifications.webhookUrlReenter': 'webhookUrl',
  'notifications.secretReenter': 'secret',
};

/** The field a server refusal names, as an error for that field; null for any other refusal. */
export function reenterError(code: string | undefined): ChannelErrors | null {
  const field = code ? REENTER_FIELDS[code] : undefined;
  return field ? { [field]: `server.${code}` } : null;
}

export function isChannelId(id: unknown): id is number {
  return typeof id === 'number' && Number.isInteger(id) && id > 0;
}

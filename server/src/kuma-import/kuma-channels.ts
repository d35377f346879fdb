/**
 * Kuma notifications → our channels: Kuma keeps each as `{ name, type, isDefault, …fields }` JSON (field names from
 * its server/notification-providers/), we as a typed config (proto/src/channels.ts). One line per type Vigil has;
 * the channel's own validation (the same as the API's) then judges the values when the document is applied.
 */
import { validateChannelConfig, type ChannelType, type ConfigChannel } from '@vigil/proto';
import type { KumaRow } from './kuma-file';
import { bool, json, kumaKey, text, type KumaSkipReason } from './kuma-values';

type KumaConfig = Record<string, unknown>;
type ConfigOf = (c: KumaConfig) => Record<string, unknown>;

/** Keeps the fields that have a value (Kuma leaves unset ones empty or null). */
const present = (config: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined && value !== null && value !== ''));
const t = (value: unknown) => text(value);
/** Kuma's address lists are one text, comma separated; ours are lists. */
const list = (value: unknown) =>
  t(value)
    ?.split(/[,;]/)
    .map((item) => item.trim())
    .filter(Boolean);

/** Kuma's type name → ours and how its fields read. */
export const KUMA_CHANNELS: Record<string, { type: ChannelType; config: ConfigOf }> = {
  webhook: {
    type: 'webhook',
    config: (c) => ({ url: t(c.webhookURL), headers: json<Record<string, string> | null>(c.webhookAdditionalHeaders, null) ?? undefined }),
  },
  slack: { type: 'slack', config: (c) => ({ webhookUrl: t(c.slackwebhookURL) }) },
  discord: { type: 'discord', config: (c) => ({ webhookUrl: t(c.discordWebhookUrl), username: t(c.discordUsername) }) },
  teams: { type: 'teams', config: (c) => ({ webhookUrl: t(c.webhookUrl) }) },
  GoogleChat: { type: 'googlechat', config: (c) => ({ webhookUrl: t(c.googleChatWebhookURL) }) },
  mattermost: {
    type: 'mattermost',
    config: (c) => ({ webhookUrl: t(c.mattermostWebhookUrl), channel: t(c.mattermostchannel), username: t(c.mattermostusername) }),
  },
  'rocket.chat': {
    type: 'rocketchat',
    config: (c) => ({ webhookUrl: t(c.rocketwebhookURL), channel: t(c.rocketchannel), username: t(c.rocketusername) }),
  },
  matrix: {
    type: 'matrix',
    config: (c) => ({ homeserverUrl: t(c.homeserverUrl), accessToken: t(c.accessToken), roomId: t(c.internalRoomId) }),
  },
  telegram: { type: 'telegram', config: (c) => ({ botToken: t(c.telegramBotToken), chatId: t(c.telegramChatID) }) },
  DingDing: { type: 'dingtalk', config: (c) => ({ webhookUrl: t(c.webHookUrl), secret: t(c.secretKey) }) },
  WeCom: {
    type: 'wecom',
    config: (c) => ({ webhookUrl: t(c.weComBotKey) && `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${t(c.weComBotKey)}` }),
  },
  Feishu: { type: 'feishu', config: (c) => ({ webhookUrl: t(c.feishuWebHookUrl) }) },
  line: { type: 'line', config: (c) => ({ channelAccessToken: t(c.lineChannelAccessToken), to: t(c.lineUserID) }) },
  signal: {
    type: 'signal',
    config: (c) => ({ serverUrl: t(c.signalURL), number: t(c.signalNumber), recipients: list(c.signalRecipients) }),
  },
  ntfy: {
    type: 'ntfy',
    config: (c) => ({
      serverUrl: t(c.ntfyserverurl),
      topic: t(c.ntfytopic),
      priority: c.ntfyPriority === undefined ? undefined : Number(c.ntfyPriority),
      token: c.ntfyAuthenticationMethod === 'accessToken' ? t(c.ntfyaccesstoken) : undefined,
    }),
  },
  gotify: {
    type: 'gotify',
    config: (c) => ({
      serverUrl: t(c.gotifyserverurl),
      appToken: t(c.gotifyapplicationToken),
      priority: c.gotifyPriority === undefined ? undefined : Number(c.gotifyPriority),
    }),
  },
  pushover: {
    type: 'pushover',
    config: (c) => ({
      userKey: t(c.pushoveruserkey),
      appToken: t(c.pushoverapptoken),
      device: t(c.pushoverdevice),
      priority: t(c.pushoverpriority),
      sound: t(c.pushoversounds),
    }),
  },
  Bark: {
    type: 'bark',
    config: (c) => {
      // Kuma keeps the device key in the endpoint (`https://api.day.app/<key>`).
      const match = /^(https?:\/\/[^/]+)\/([^/?#]+)/.exec(t(c.barkEndpoint) ?? '');
      return { serverUrl: match?.[1], deviceKey: match?.[2], group: t(c.barkGroup), sound: t(c.barkSound) };
    },
  },
  ServerChan: { type: 'serverchan', config: (c) => ({ sendKey: t(c.serverChanSendKey) }) },
  PushPlus: { type: 'pushplus', config: (c) => ({ token: t(c.pushPlusSendKey) }) },
  HomeAssistant: {
    type: 'homeassistant',
    config: (c) => ({
      serverUrl: t(c.homeAssistantUrl),
      accessToken: t(c.longLivedAccessToken),
      service: t(c.notificationService)?.replace(/^notify\./, ''),
    }),
  },
  PagerDuty: { type: 'pagerduty', config: (c) => ({ integrationKey: t(c.pagerdutyIntegrationKey) }) },
  Opsgenie: {
    type: 'opsgenie',
    config: (c) => ({
      apiKey: t(c.opsgenieApiKey),
      region: t(c.opsgenieRegion),
      priority: c.opsgeniePriority ? `P${String(c.opsgeniePriority)}` : undefined,
    }),
  },
  smtp: {
    type: 'smtp',
    config: (c) => ({
      host: t(c.smtpHost),
      port: c.smtpPort === undefined ? undefined : Number(c.smtpPort),
      // Kuma's "Secure" is TLS from the first byte; off, nodemailer upgrades with STARTTLS when offered.
      security: bool(c.smtpSecure) ? 'tls' : bool(c.smtpIgnoreSTARTTLS) ? 'none' : 'starttls',
      username: t(c.smtpUsername),
      password: t(c.smtpPassword),
      from: t(c.smtpFrom),
      to: list(c.smtpTo),
      cc: list(c.smtpCC),
      bcc: list(c.smtpBCC),
      tlsInsecure: bool(c.smtpIgnoreTLSError),
    }),
  },
};

export interface MappedChannel {
  channel?: ConfigChannel;
  skip?: { reason: KumaSkipReason; detail: string };
}

export function mapChannel(row: KumaRow): MappedChannel {
  const config = json<KumaConfig>(row.config, {});
  const kumaType = String(config.type ?? '');
  const kind = KUMA_CHANNELS[kumaType];
  if (!kind) return { skip: { reason: 'unsupportedChannel', detail: kumaType || 'unknown' } };
  const fields = present(kind.config(config));
  // Checked by the channel API's rule here, so one value we refuse skips this channel, not the whole import.
  const checked = validateChannelConfig(kind.type, fields);
  if (!checked.ok) return { skip: { reason: 'invalid', detail: `${kind.type}: ${checked.field ?? ''}` } };
  return {
    channel: {
      key: kumaKey('channel', row),
      name: (text(row.name) ?? text(config.name) ?? `Kuma ${String(row.id)}`).slice(0, 100),
      type: kind.type,
      enabled: row.active === undefined ? true : bool(row.active),
      config: fields,
      defaultForMonitors: bool(row.is_default ?? config.isDefault),
    },
  };
}

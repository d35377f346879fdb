/** Notifications: channel types and their configuration as the API reads and writes them. */

export const CHANNEL_TYPES = ['telegram', 'resend', 'webhook', 'slack', 'dingtalk', 'wecom', 'feishu'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** What a read returns in place of a stored secret; sending it back on edit keeps the stored one. */
export const SECRET_MASK = '••••••••';

export interface TelegramConfig {
  botToken: string;
  chatId: string;
}
export interface ResendConfig {
  apiKey: string;
  /** `name@example.com` or `Name <name@example.com>`. */
  from: string;
  /** One or more addresses, comma-separated. */
  to: string;
}
export interface WebhookConfig {
  url: string;
  /** Extra request headers (e.g. an Authorization header). */
  headers?: Record<string, string>;
}
export interface SlackConfig {
  webhookUrl: string;
}
export interface DingTalkConfig {
  webhookUrl: string;
  /** Signing secret (`SEC…`) when the robot's security setting is "sign". */
  secret?: string;
}
export interface WeComConfig {
  webhookUrl: string;
}
export interface FeishuConfig {
  webhookUrl: string;
  /** Signature secret when the bot's security setting is "signature verification". */
  secret?: string;
}

export interface ChannelConfigs {
  telegram: TelegramConfig;
  resend: ResendConfig;
  webhook: WebhookConfig;
  slack: SlackConfig;
  dingtalk: DingTalkConfig;
  wecom: WeComConfig;
  feishu: FeishuConfig;
}

/** The JSON a generic webhook receives. */
export interface WebhookPayload {
  event: string;
  severity: 'alert' | 'recovery' | 'info';
  subject: string;
  text: string;
  target: { kind: 'monitor' | 'agent' | 'test'; id: number | null; name: string };
  sent_at: string;
}

export interface NotificationTemplateDto {
  id: number;
  name: string;
  /** The event it renders, e.g. monitor.down. */
  type: string;
  language: 'zh-CN' | 'en-US';
  subject: string;
  content: string;
  is_default: boolean;
}

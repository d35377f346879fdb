import type { ChannelType } from '@vigil/proto';
import { appriseProvider } from './apprise.provider';
import { dingtalkProvider } from './dingtalk.provider';
import { discordProvider } from './discord.provider';
import { googlechatProvider } from './googlechat.provider';
import { lineProvider } from './line.provider';
import { matrixProvider } from './matrix.provider';
import { mattermostProvider } from './mattermost.provider';
import { rocketchatProvider } from './rocketchat.provider';
import { signalProvider } from './signal.provider';
import { teamsProvider } from './teams.provider';
import { feishuProvider } from './feishu.provider';
import { barkProvider } from './bark.provider';
import { gotifyProvider } from './gotify.provider';
import { homeassistantProvider } from './homeassistant.provider';
import { ntfyProvider } from './ntfy.provider';
import { opsgenieProvider } from './opsgenie.provider';
import { pagerdutyProvider } from './pagerduty.provider';
import { pushoverProvider } from './pushover.provider';
import { pushplusProvider } from './pushplus.provider';
import { serverchanProvider } from './serverchan.provider';
import type { ChannelProvider } from './provider';
import { resendProvider } from './resend.provider';
import { slackProvider } from './slack.provider';
import { smtpProvider } from './smtp.provider';
import { telegramProvider } from './telegram.provider';
import { webhookProvider } from './webhook.provider';
import { webpushProvider } from './webpush.provider';
import { wecomProvider } from './wecom.provider';

export * from './provider';
export { isRetryable } from './http';

/** Every channel type's provider; adding a type adds one line here (its fields are its CHANNEL_SPECS entry). */
export const PROVIDERS: { [T in ChannelType]: ChannelProvider<T> } = {
  telegram: telegramProvider,
  smtp: smtpProvider,
  resend: resendProvider,
  webhook: webhookProvider,
  slack: slackProvider,
  discord: discordProvider,
  teams: teamsProvider,
  googlechat: googlechatProvider,
  mattermost: mattermostProvider,
  rocketchat: rocketchatProvider,
  matrix: matrixProvider,
  line: lineProvider,
  signal: signalProvider,
  dingtalk: dingtalkProvider,
  wecom: wecomProvider,
  feishu: feishuProvider,
  webpush: webpushProvider,
  ntfy: ntfyProvider,
  gotify: gotifyProvider,
  pushover: pushoverProvider,
  bark: barkProvider,
  serverchan: serverchanProvider,
  pushplus: pushplusProvider,
  homeassistant: homeassistantProvider,
  pagerduty: pagerdutyProvider,
  opsgenie: opsgenieProvider,
  apprise: appriseProvider,
};

/** The provider of a channel type; throws for a type that is not one (a stored row the proto no longer knows). */
export function providerFor<T extends ChannelType>(type: T): ChannelProvider<T> {
  const provider = (PROVIDERS as Partial<Record<string, ChannelProvider>>)[type];
  if (!provider) throw new Error(`Unknown notification channel type: ${String(type)}`);
  return provider as unknown as ChannelProvider<T>;
}

import type { ChannelType } from '@vigil/proto';
import { dingtalkProvider } from './dingtalk.provider';
import { feishuProvider } from './feishu.provider';
import type { ChannelProvider } from './provider';
import { resendProvider } from './resend.provider';
import { slackProvider } from './slack.provider';
import { telegramProvider } from './telegram.provider';
import { webhookProvider } from './webhook.provider';
import { wecomProvider } from './wecom.provider';

export * from './provider';
export { isRetryable } from './http';

/** Every channel type's provider; adding a type adds one line here. */
export const PROVIDERS: { [T in ChannelType]: ChannelProvider<T> } = {
  telegram: telegramProvider,
  resend: resendProvider,
  webhook: webhookProvider,
  slack: slackProvider,
  dingtalk: dingtalkProvider,
  wecom: wecomProvider,
  feishu: feishuProvider,
};

/** The provider of a channel type; throws for a type that is not one (a stored row the proto no longer knows). */
export function providerFor<T extends ChannelType>(type: T): ChannelProvider<T> {
  const provider = (PROVIDERS as Partial<Record<string, ChannelProvider>>)[type];
  if (!provider) throw new Error(`Unknown notification channel type: ${String(type)}`);
  return provider as unknown as ChannelProvider<T>;
}

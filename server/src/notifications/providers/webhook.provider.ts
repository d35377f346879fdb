import type { WebhookPayload } from '@vigil/proto';
import { postJson } from './http';
import type { ChannelProvider } from './provider';

/** A generic JSON webhook: POSTs a WebhookPayload with the user's extra headers; any 2xx is a delivery. */
export const webhookProvider: ChannelProvider<'webhook'> = {
  type: 'webhook',

  send(message, config, context) {
    const payload: WebhookPayload = {
      event: message.event,
      severity: message.severity,
      subject: message.subject,
      text: message.text,
      target: message.target,
      sent_at: new Date(context.now()).toISOString(),
      ...(message.link ? { link: message.link } : {}),
      ...(context.deliveryId ? { delivery_id: context.deliveryId } : {}),
      ...(message.items
        ? { items: message.items.map(({ event, severity, subject, text, target, at }) => ({ event, severity, subject, text, target, at })) }
        : {}),
    };
    return postJson(config.url, payload, context, { headers: config.headers });
  },
};

import type { WebPushPayload } from '@vigil/proto';
import { DeliveryError, type ChannelProvider, type NotificationMessage } from './provider';

/**
 * Browser notifications (Web Push): the message goes to every browser where a user (or an admin, by `audience`)
 * enabled notifications on their profile page. The subscriptions, VAPID keys and sending are the web-push module's;
 * this only shapes the payload the service worker shows. The destination is fixed by the server: no config secret.
 */
export const webpushProvider: ChannelProvider<'webpush'> = {
  type: 'webpush',

  async send(message, config, context) {
    if (!context.webPush) throw new DeliveryError('Browser notifications are not available here', null, { retryable: false });
    return context.webPush.deliver(config.audience, webPushPayload(message));
  },
};

/** What the service worker shows: the subject as title, the text as body, and the monitor's or agent's page on click. */
export function webPushPayload(message: NotificationMessage): WebPushPayload {
  const { kind, id } = message.target;
  const page = kind === 'monitor' && id !== null ? `/monitors/${id}` : kind === 'agent' && id !== null ? `/agents/${id}` : '/notifications';
  return {
    title: message.subject,
    body: message.text,
    url: page,
    // One notification per monitor or agent: a recovery replaces the alert instead of stacking under it.
    tag: id !== null && kind !== 'test' ? `vigil-${kind}-${id}` : `vigil-${kind}`,
    severity: message.severity,
  };
}

import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { truncateChars, truncateUtf8 } from './text';
import { joinPath } from './url-query';

/** Bark forwards to APNs, whose whole payload is limited to 4 KB: the body keeps most of it. */
const MAX_BODY_BYTES = 3000;
const MAX_TITLE = 200;

/**
 * Bark's `POST /push` with the device key in the JSON body (not in the path, where it would end up in access logs);
 * an alert is time-sensitive so it breaks through Focus, and the page link opens on a tap.
 */
export const barkProvider: ChannelProvider<'bark'> = {
  type: 'bark',

  send(message, config, context) {
    const body = {
      device_key: config.deviceKey,
      title: truncateChars(message.subject, MAX_TITLE),
      body: truncateUtf8(message.text || message.subject, MAX_BODY_BYTES),
      level: message.severity === 'alert' ? 'timeSensitive' : 'active',
      ...(config.group ? { group: config.group } : {}),
      ...(config.sound ? { sound: config.sound } : {}),
      ...(message.link ? { url: message.link } : {}),
    };
    return postJson(joinPath(config.serverUrl, 'push'), body, context, { secrets: [config.deviceKey], check: checkBark });
  },
};

/**
 * bark-server answers `{ code: 200, message: 'success' }`, failures with the same code in the status and the body
 * (`{ code: 400, message: 'failed to get device token: …' }`; 500 when APNs refused, tried again later).
 */
function checkBark(json: unknown, status: number): Explanation | undefined {
  const answer = answerOf<{ code?: unknown; message?: unknown }>(json);
  if (answer.code === 200 && status >= 200 && status < 300) return undefined;
  if (typeof answer.message === 'string' && answer.message && typeof answer.code === 'number') {
    return { message: `${answer.message} (code ${answer.code})` };
  }
  return status >= 200 && status < 300 ? { message: 'Bark did not confirm the message' } : undefined;
}

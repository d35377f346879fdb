import { answerOf, postJson, statusLine, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { joinPath } from './url-query';

/** Gotify's clients sound at 4–7 and pop up from 8: a recovery sounds, but never pops up. */
const RECOVERY_PRIORITY = 5;

/**
 * Gotify's `POST /message` with the application token in `X-Gotify-Key` (never in the URL, where proxies log it);
 * the page link opens on a tap (the `client::notification` extra), the text is shown as plain text.
 */
export const gotifyProvider: ChannelProvider<'gotify'> = {
  type: 'gotify',

  send(message, config, context) {
    const body = {
      title: message.subject,
      message: message.text || message.subject,
      priority: message.severity === 'recovery' ? Math.min(config.priority, RECOVERY_PRIORITY) : config.priority,
      extras: {
        'client::display': { contentType: 'text/plain' },
        ...(message.link ? { 'client::notification': { click: { url: message.link } } } : {}),
      },
    };
    return postJson(joinPath(config.serverUrl, 'message'), body, context, {
      headers: { 'x-gotify-key': config.appToken },
      check: checkGotify,
    });
  },
};

/** Gotify answers failures as `{ error: 'Unauthorized', errorCode: 401, errorDescription }`. */
function checkGotify(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<{ error?: unknown; errorDescription?: unknown }>(json);
  const reason = [answer.errorDescription, answer.error].find((part) => typeof part === 'string' && part);
  return reason ? { message: `${statusLine(status)}: ${String(reason)}` } : undefined;
}

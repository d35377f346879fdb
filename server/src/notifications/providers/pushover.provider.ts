import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { truncateChars } from './text';

/** Pushover's limits, in characters: it refuses a longer message, title or link rather than cutting it. */
const MAX_MESSAGE = 1024;
const MAX_TITLE = 250;
const MAX_URL = 512;
const MAX_URL_TITLE = 100;
/** A recovery is never sent above normal priority: high priority breaks through the user's quiet hours. */
const RECOVERY_PRIORITY = 0;

interface PushoverAnswer {
  status?: number;
  errors?: unknown;
}

/**
 * Pushover's `POST /1/messages.json` (JSON is accepted as well as a form), stamped with the event's time so a
 * delayed delivery shows when it happened; the page link is the message's supplementary URL.
 */
export const pushoverProvider: ChannelProvider<'pushover'> = {
  type: 'pushover',

  send(message, config, context) {
    const priority = Number(config.priority);
    const link = message.link && message.link.length <= MAX_URL ? message.link : undefined;
    const body = {
      token: config.appToken,
      user: config.userKey,
      title: truncateChars(message.subject, MAX_TITLE),
      message: truncateChars(message.text || message.subject, MAX_MESSAGE),
      priority: message.severity === 'recovery' ? Math.min(priority, RECOVERY_PRIORITY) : priority,
      timestamp: Math.floor(Date.parse(message.at) / 1000),
      ...(config.device ? { device: config.device } : {}),
      ...(config.sound ? { sound: config.sound } : {}),
      ...(link ? { url: link, url_title: truncateChars(message.target.name || link, MAX_URL_TITLE) } : {}),
    };
    return postJson(`${context.apiUrl}/1/messages.json`, body, context, {
      secrets: [config.appToken, config.userKey],
      check: checkPushover,
    });
  },
};

/**
 * Pushover answers `{ status: 1, request }`; a refusal is `{ status: 0, errors: ['user identifier is invalid'] }` with
 * a 4xx, which fails the same way next time. A 429 (the app's monthly limit) and 5xx are tried again later.
 */
function checkPushover(json: unknown, status: number): Explanation | undefined {
  const answer = answerOf<PushoverAnswer>(json);
  if (answer.status === 1 && status >= 200 && status < 300) return undefined;
  const errors = Array.isArray(answer.errors) ? answer.errors.filter((error): error is string => typeof error === 'string') : [];
  if (errors.length > 0) return { message: errors.join('; ') };
  return status >= 200 && status < 300 ? { message: 'Pushover did not confirm the message' } : undefined;
}

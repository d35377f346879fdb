import { answerOf, postJson, statusLine, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { truncateUtf8 } from './text';
import { joinPath } from './url-query';

/** ntfy's default `message-size-limit`: a longer message becomes an attachment, or is refused where those are off. */
const MAX_MESSAGE_BYTES = 4096;
/** ntfy's "default" priority: a recovery is news, not an alarm. */
const RECOVERY_PRIORITY = 3;
/** Emoji shortcodes ntfy shows before the title. */
const TAGS: Record<NotificationMessage['severity'], string> = {
  alert: 'rotating_light',
  recovery: 'white_check_mark',
  info: 'information_source',
};

/**
 * ntfy's JSON publishing: POST to the server's root with the topic in the body (docs.ntfy.sh/publish, "Publish as
 * JSON"); the page link opens on a tap (`click`). A protected topic takes an access token as a Bearer token.
 */
export const ntfyProvider: ChannelProvider<'ntfy'> = {
  type: 'ntfy',

  send(message, config, context) {
    const body = {
      topic: config.topic,
      title: message.subject,
      message: truncateUtf8(message.text || message.subject, MAX_MESSAGE_BYTES),
      priority: message.severity === 'recovery' ? Math.min(config.priority, RECOVERY_PRIORITY) : config.priority,
      tags: [TAGS[message.severity]],
      ...(message.link ? { click: message.link } : {}),
    };
    const headers = config.token ? { authorization: `Bearer ${config.token}` } : undefined;
    return postJson(joinPath(config.serverUrl, ''), body, context, { headers, secrets: [config.token], check: checkNtfy });
  },
};

/** ntfy answers failures as `{ code: 40301, http: 403, error: 'forbidden', link }`; a 429 (code 429xx) is a rate limit, tried again later. */
function checkNtfy(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<{ code?: number; error?: string }>(json);
  if (typeof answer.error !== 'string' || !answer.error) return undefined;
  return { message: `${statusLine(status)}: ${answer.error}${typeof answer.code === 'number' ? ` (code ${answer.code})` : ''}` };
}

import { postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { plainText, SEVERITY_COLOURS, truncateChars } from './text';

/** Mattermost splits a post over 16,383 characters; an attachment's text is kept well under it. */
const TEXT_MAX = 8000;
const SUBJECT_MAX = 1000;

/**
 * Mattermost incoming webhooks (`POST …/hooks/{key}`): the subject as the post's text, then a Slack-style attachment
 * coloured by severity with the target as its title (linking to its page), the text and the event's time. `channel`
 * and `username` override the webhook's when set (Mattermost must allow the override). Mattermost answers 200 `ok`;
 * errors are `{ id, message, status_code }`.
 */
export const mattermostProvider: ChannelProvider<'mattermost'> = {
  type: 'mattermost',

  send(message, config, context) {
    const attachment = {
      fallback: truncateChars(plainText(message), TEXT_MAX),
      color: SEVERITY_COLOURS[message.severity],
      title: truncateChars(message.target.name, SUBJECT_MAX),
      ...(message.link ? { title_link: message.link } : {}),
      ...(message.text ? { text: truncateChars(message.text, TEXT_MAX) } : {}),
      footer: 'Vigil',
      ts: Math.floor(Date.parse(message.at) / 1000) || undefined,
    };
    const body = {
      text: truncateChars(message.subject, SUBJECT_MAX),
      ...(config.channel ? { channel: config.channel } : {}),
      ...(config.username ? { username: config.username } : {}),
      attachments: [attachment],
    };
    return postJson(config.webhookUrl, body, context, { check: checkMattermost });
  },
};

/** Mattermost's app errors: `{ id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.' }`. */
function checkMattermost(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = (typeof json === 'object' && json !== null ? json : {}) as { message?: unknown };
  return typeof answer.message === 'string' && answer.message ? { message: answer.message } : undefined;
}

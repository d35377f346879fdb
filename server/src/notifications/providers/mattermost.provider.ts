import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { chatAttachment, truncateChars } from './text';

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
      ...chatAttachment(message, TEXT_MAX, SUBJECT_MAX),
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
  const answer = answerOf<{ message?: unknown }>(json);
  return typeof answer.message === 'string' && answer.message ? { message: answer.message } : undefined;
}

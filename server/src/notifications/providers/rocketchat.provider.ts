import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { chatAttachment, truncateChars } from './text';

/** Rocket.Chat's default Message_MaxAllowedSize. */
const TEXT_MAX = 5000;
const SUBJECT_MAX = 1000;

/**
 * Rocket.Chat incoming webhooks (`POST …/hooks/{id}/{token}`): the subject as the message's text, then an attachment
 * coloured by severity with the target as its title (linking to its page), the text and the event's time. `channel`
 * (`#channel`, `@user` or a room id) and `username` (shown as the message's alias) override the integration's.
 * Rocket.Chat answers `{ success: true }`; errors are `{ success: false, error }`.
 */
export const rocketchatProvider: ChannelProvider<'rocketchat'> = {
  type: 'rocketchat',

  send(message, config, context) {
    const attachment = {
      ...chatAttachment(message, TEXT_MAX, SUBJECT_MAX),
      ts: message.at,
    };
    const body = {
      text: truncateChars(message.subject, SUBJECT_MAX),
      ...(config.channel ? { channel: config.channel } : {}),
      ...(config.username ? { alias: config.username } : {}),
      attachments: [attachment],
    };
    return postJson(config.webhookUrl, body, context, { check: checkRocketChat });
  },
};

/** Rocket.Chat answers `{ success: false, error: 'Invalid integration id or token provided.' }`, usually with 4xx. */
function checkRocketChat(json: unknown, status: number): Explanation | undefined {
  const answer = answerOf<{ success?: unknown; error?: unknown }>(json);
  if (answer.success !== false) return undefined;
  const reason = typeof answer.error === 'string' && answer.error ? answer.error : `Rocket.Chat refused the message (HTTP ${status})`;
  return { message: reason };
}

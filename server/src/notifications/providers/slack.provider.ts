import { validateRobot } from './config';
import { postJson } from './http';
import type { ChannelProvider } from './provider';

/** Slack incoming webhooks: `{ text }` in Slack's mrkdwn, subject in bold. Slack answers 200 `ok`, errors as 4xx text. */
export const slackProvider: ChannelProvider<'slack'> = {
  type: 'slack',
  // Anyone holding the URL can post to the channel.
  secretFields: ['webhookUrl'],

  validate(config) {
    return validateRobot(config, false);
  },

  send(message, config, context) {
    const subject = escapeSlack(message.subject);
    const text = message.text ? `*${subject}*\n${escapeSlack(message.text)}` : `*${subject}*`;
    return postJson(config.webhookUrl, { text }, context);
  },
};

/** The three characters Slack's message formatting reserves. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

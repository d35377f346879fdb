import { robotDestination, validateRobot } from './config';
import { postJson, statusLine, type Explanation } from './http';
import type { ChannelProvider } from './provider';

/** Slack incoming webhooks: `{ text }` in Slack's mrkdwn, subject in bold. Slack answers 200 `ok`, errors as 4xx text. */
export const slackProvider: ChannelProvider<'slack'> = {
  type: 'slack',
  // Anyone holding the URL can post to the channel.
  secretFields: ['webhookUrl'],
  // The whole URL names the robot, so a kept secret needs the very same URL.
  destination: robotDestination,

  validate(config) {
    return validateRobot(config, false);
  },

  send(message, config, context) {
    const subject = escapeSlack(message.subject);
    const text = message.text ? `*${subject}*\n${escapeSlack(message.text)}` : `*${subject}*`;
    return postJson(config.webhookUrl, { text }, context, { check: checkSlack });
  },
};

/** Slack's error codes (`invalid_payload`, `no_service`); a body of any other form is not shown. */
const SLACK_ERROR = /^[a-z][a-z0-9_]{0,63}$/;

/** Slack answers failures as a plain-text error code with a 4xx or 5xx status. */
function checkSlack(_json: unknown, status: number, text?: string): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const code = text?.trim() ?? '';
  return SLACK_ERROR.test(code) ? { message: `${statusLine(status)}: ${code}` } : undefined;
}

/** The three characters Slack's message formatting reserves. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

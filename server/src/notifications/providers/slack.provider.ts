import { postJson, statusLine, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { plainText, SEVERITY_COLOURS, truncateChars } from './text';

/** Block Kit's limits: a header's plain text, a section's text; `text` is cut by Slack itself past 40,000. */
const HEADER_MAX = 150;
const SECTION_MAX = 3000;
const FALLBACK_MAX = 4000;

/**
 * Slack incoming webhooks in Block Kit: the subject as a header, then in an attachment coloured by severity the text
 * (mrkdwn) and a context line naming the target (a link to its page when there is one) and the time in the reader's
 * zone. `text` is what notifications and older clients show. Slack answers 200 `ok`, errors as 4xx text.
 */
export const slackProvider: ChannelProvider<'slack'> = {
  type: 'slack',

  send(message, config, context) {
    return postJson(config.webhookUrl, slackPayload(message), context, { check: checkSlack });
  },
};

function slackPayload(message: NotificationMessage): Record<string, unknown> {
  const details: object[] = [];
  if (message.text)
    details.push({ type: 'section', text: { type: 'mrkdwn', text: truncateChars(escapeSlack(message.text), SECTION_MAX) } });
  details.push({ type: 'context', elements: [{ type: 'mrkdwn', text: contextLine(message) }] });
  return {
    text: truncateChars(escapeSlack(plainText(message)), FALLBACK_MAX),
    blocks: [{ type: 'header', text: { type: 'plain_text', text: truncateChars(message.subject, HEADER_MAX), emoji: true } }],
    attachments: [{ color: SEVERITY_COLOURS[message.severity], blocks: details }],
  };
}

/**
 * `<link|Shop API> · <!date^…|2024-05-01 11:59:58 UTC>`: a link rather than a button, since a webhook's app has no
 * interaction endpoint and Slack marks a clicked button with a warning.
 */
function contextLine(message: NotificationMessage): string {
  const name = escapeSlack(message.target.name);
  const target = message.link ? `<${message.link}|${name.replace(/\|/g, '¦')}>` : name;
  const at = Date.parse(message.at);
  if (Number.isNaN(at)) return target;
  const fallback = `${message.at.slice(0, 19).replace('T', ' ')} UTC`;
  return `${target} · <!date^${Math.floor(at / 1000)}^{date_short_pretty} {time_secs}|${fallback}>`;
}

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

import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { SEVERITY_COLOURS, truncateChars } from './text';

/** Discord's embed limits (title, description, footer); together they stay under the 6,000 of a whole embed. */
const TITLE_MAX = 256;
const DESCRIPTION_MAX = 4096;
const FOOTER_MAX = 256;

interface DiscordError {
  message?: string;
  code?: number;
  /** Seconds, on 429. */
  retry_after?: number;
}

/**
 * Discord webhooks (`POST /api/webhooks/{id}/{token}`): one embed coloured by severity, the subject as its title
 * linking to the target's page, the text as its description, the target in the footer and the event's time. Mentions
 * in the text (`@everyone`, a monitor named `<@&role>`) never ping. Discord answers 204; errors are
 * `{ message, code }`, a 429 also `retry_after` in seconds.
 */
export const discordProvider: ChannelProvider<'discord'> = {
  type: 'discord',

  send(message, config, context) {
    const embed = {
      title: truncateChars(message.subject, TITLE_MAX),
      ...(message.text ? { description: truncateChars(message.text, DESCRIPTION_MAX) } : {}),
      ...(message.link ? { url: message.link } : {}),
      color: Number.parseInt(SEVERITY_COLOURS[message.severity].slice(1), 16),
      timestamp: message.at,
      footer: { text: truncateChars(message.target.name, FOOTER_MAX) },
    };
    const body = {
      ...(config.username ? { username: config.username } : {}),
      embeds: [embed],
      allowed_mentions: { parse: [] },
    };
    return postJson(config.webhookUrl, body, context, { check: checkDiscord });
  },
};

function checkDiscord(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<DiscordError>(json);
  if (typeof answer.message !== 'string') return undefined;
  const retryAfter = typeof answer.retry_after === 'number' ? answer.retry_after * 1000 : null;
  return {
    message: typeof answer.code === 'number' && answer.code !== 0 ? `${answer.message} (code ${answer.code})` : answer.message,
    ...(retryAfter !== null ? { retryAfterMs: Math.ceil(retryAfter) } : {}),
  };
}

import { CHANNEL_SPECS } from '@vigil/proto';
import { answerOf, postJson, statusLine, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { incidentKey, truncateChars } from './text';

/** Accounts in Opsgenie's EU region live on their own API host. */
const EU_API_URL = 'https://api.eu.opsgenie.com';
/** Opsgenie's limits, in characters: it refuses longer fields rather than cutting them. */
const MAX_MESSAGE = 130;
const MAX_DESCRIPTION = 15_000;
const MAX_ENTITY = 512;
const MAX_NOTE = 25_000;
const SOURCE = 'Vigil';

/**
 * Opsgenie's Alert API with `Authorization: GenieKey <key>`: an alert creates an Opsgenie alert whose alias is the
 * episode's key (`incidentKey`), so retries and other instances add to that alert rather than open another, and its
 * recovery closes it by that alias. A test creates a P5 alert under an alias of its own, which the user closes.
 * Opsgenie accepts both requests with 202 and processes them later.
 */
export const opsgenieProvider: ChannelProvider<'opsgenie'> = {
  type: 'opsgenie',

  send(message, config, context) {
    // OPSGENIE_API_URL (a proxy, a test's fake) wins over the region; otherwise an EU account uses the EU host.
    const base = config.region === 'eu' && context.apiUrl === CHANNEL_SPECS.opsgenie.apiUrl ? EU_API_URL : context.apiUrl;
    const alias = incidentKey(message, context.deliveryId);
    const options = { headers: { authorization: `GenieKey ${config.apiKey}` }, secrets: [config.apiKey], check: checkOpsgenie };
    if (message.event === 'alert.acknowledged') {
      const note = truncateChars(`${message.subject}\n${message.text}`.trim(), MAX_NOTE);
      return postJson(
        `${base}/v2/alerts/${encodeURIComponent(alias)}/acknowledge?identifierType=alias`,
        { source: SOURCE, note },
        context,
        options,
      );
    }
    if (message.severity === 'recovery') {
      const note = truncateChars(withLink(message, `${message.subject}\n${message.text}`.trim()), MAX_NOTE);
      return postJson(
        `${base}/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
        { source: SOURCE, note },
        context,
        options,
      );
    }
    const alert = {
      message: truncateChars(message.subject.trim() || message.event, MAX_MESSAGE),
      alias,
      description: truncateChars(withLink(message, message.text), MAX_DESCRIPTION),
      priority: message.severity === 'info' ? 'P5' : config.priority,
      source: SOURCE,
      entity: truncateChars(message.target.name, MAX_ENTITY),
      tags: ['vigil', message.target.kind, message.event],
      details: { event: message.event, ...(message.link ? { link: message.link } : {}) },
    };
    return postJson(`${base}/v2/alerts`, alert, context, options);
  },
};

/** The text and, when there is one, the page link on a line of its own. */
function withLink(message: NotificationMessage, text: string): string {
  return message.link ? `${text}\n\n${message.link}` : text;
}

/**
 * Opsgenie refuses with `{ message, errors?: { field: reason }, took, requestId }`: 401/403 for a bad key, 422 for a
 * request it cannot process (not tried again); 429 and 5xx are tried again.
 */
function checkOpsgenie(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<{ message?: unknown; errors?: unknown }>(json);
  if (typeof answer.message !== 'string' || answer.message === '') return undefined;
  const errors =
    typeof answer.errors === 'object' && answer.errors !== null
      ? Object.values(answer.errors).filter((error): error is string => typeof error === 'string')
      : [];
  return { message: `${statusLine(status)}: ${[answer.message, ...errors].join(' ')}` };
}

import { postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { plainTextWithLink } from './text';

/** Signal shows 2,000 characters of a message's body; clients carry a longer one as an attachment. */
const TEXT_MAX = 2000;

/**
 * signal-cli REST API (`POST {serverUrl}/v2/send`, bbernhard/signal-cli-rest-api): the plain text, the link to the
 * target's page as its last line, from the registered `number` to each recipient (a phone number or `group.…` id).
 * It answers 201 `{ timestamp }`; errors are `{ error }`.
 */
export const signalProvider: ChannelProvider<'signal'> = {
  type: 'signal',

  send(message, config, context) {
    const body = { message: plainTextWithLink(message, TEXT_MAX), number: config.number, recipients: config.recipients };
    return postJson(`${config.serverUrl.replace(/\/+$/, '')}/v2/send`, body, context, { check: checkSignal });
  },
};

function checkSignal(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const error = (json as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' && error ? { message: error } : undefined;
}

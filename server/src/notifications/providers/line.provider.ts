import { answerOf, postJson, type Explanation } from './http';
import { DeliveryError, type ChannelProvider, type ProviderAnswer } from './provider';
import { plainTextWithLink } from './text';

/** A text message's limit, in UTF-16 units. */
const TEXT_MAX = 5000;
/** The retry key was already accepted: the message went out on an earlier attempt. */
const ALREADY_ACCEPTED = 409;

interface LineError {
  message?: string;
  details?: Array<{ message?: string; property?: string }>;
}

/**
 * LINE Messaging API push (`POST /v2/bot/message/push`) with the channel access token as Bearer: one text message,
 * the link to the target's page as its last line. `X-Line-Retry-Key` is the delivery's id, so LINE sends a retried
 * delivery once and answers the repeat 409, which counts as sent. Errors are `{ message, details }`.
 */
export const lineProvider: ChannelProvider<'line'> = {
  type: 'line',

  async send(message, config, context): Promise<ProviderAnswer> {
    const body = { to: config.to, messages: [{ type: 'text', text: plainTextWithLink(message, TEXT_MAX) }] };
    const headers = {
      authorization: `Bearer ${config.channelAccessToken}`,
      ...(context.deliveryId ? { 'x-line-retry-key': context.deliveryId } : {}),
    };
    try {
      return await postJson(`${context.apiUrl}/v2/bot/message/push`, body, context, {
        headers,
        secrets: [config.channelAccessToken],
        check: checkLine,
      });
    } catch (error) {
      if (error instanceof DeliveryError && error.status === ALREADY_ACCEPTED) return { status: ALREADY_ACCEPTED, detail: 'Already sent' };
      throw error;
    }
  },
};

/** `{ message: 'The request body has 1 error(s)', details: [{ message, property }] }`. */
function checkLine(json: unknown, status: number): Explanation | undefined {
  if ((status >= 200 && status < 300) || status === ALREADY_ACCEPTED) return undefined;
  const answer = answerOf<LineError>(json);
  if (typeof answer.message !== 'string' || !answer.message) return undefined;
  const detail = answer.details?.find((one) => typeof one?.message === 'string');
  const message = detail ? `${answer.message}: ${detail.property ? `${detail.property} ` : ''}${detail.message}` : answer.message;
  // A used-up monthly quota does not come back before next month; a rate limit does.
  return { message, ...(status === 429 && /monthly limit/i.test(answer.message) ? { retryable: false } : {}) };
}

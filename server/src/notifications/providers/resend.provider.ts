import { emailHtml, emailText } from './email-html';
import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';

interface ResendError {
  statusCode?: number;
  message?: string;
  name?: string;
}

/** Resend's `POST /emails`, with a plain text part and the same text as simple HTML. */
export const resendProvider: ChannelProvider<'resend'> = {
  type: 'resend',

  send(message, config, context) {
    const url = `${context.apiUrl}/emails`;
    const body = {
      from: config.from,
      to: config.to,
      subject: message.subject,
      text: emailText(message),
      html: emailHtml(message),
    };
    return postJson(url, body, context, {
      // Resend itself drops a repeat of the same key within 24 hours, so a retry after a lost answer sends no second email.
      headers: { Authorization: `Bearer ${config.apiKey}`, ...(context.deliveryId ? { 'Idempotency-Key': context.deliveryId } : {}) },
      secrets: [config.apiKey],
      check: checkResend,
    });
  },
};

/** Resend answers `{ id }` on success and `{ statusCode, message, name }` on failure. */
function checkResend(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<ResendError>(json);
  const text = answer.message || answer.name;
  return text ? { message: text } : undefined;
}

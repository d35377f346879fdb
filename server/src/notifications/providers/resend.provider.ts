import { CHANNEL_RULES, isSender, type ResendConfig } from '@vigil/proto';
import { invalid, readConfig, readText } from './config';
import { postJson, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { escapeHtml } from './text';

/** Resend accepts up to 50 recipients per email. */
const MAX_RECIPIENTS = 50;

const ACCENT: Record<NotificationMessage['severity'], string> = { alert: '#e03131', recovery: '#2f9e44', info: '#1c7ed6' };

interface ResendError {
  statusCode?: number;
  message?: string;
  name?: string;
}

/** Resend's `POST /emails`, with a plain text part and the same text as simple HTML. */
export const resendProvider: ChannelProvider<'resend'> = {
  type: 'resend',
  secretFields: ['apiKey'],

  validate(config) {
    const fields = readConfig(config);
    if (!fields) return invalid('notifications.configInvalid');
    const apiKey = readText(fields, 'apiKey');
    if (!apiKey) return invalid('notifications.apiKeyRequired');
    const from = readText(fields, 'from');
    if (!from) return invalid('notifications.senderRequired');
    if (!isSender(from)) return invalid('notifications.senderInvalid');
    const recipients = splitRecipients(readText(fields, 'to'));
    if (recipients.length === 0) return invalid('notifications.recipientRequired');
    if (recipients.length > MAX_RECIPIENTS || !recipients.every((address) => CHANNEL_RULES.email.test(address))) {
      return invalid('notifications.recipientInvalid');
    }
    const valid: ResendConfig = { apiKey, from, to: recipients.join(', ') };
    return { ok: true, config: valid };
  },

  send(message, config, context) {
    const url = `${context.resendApiUrl.replace(/\/+$/, '')}/emails`;
    const body = {
      from: config.from,
      to: splitRecipients(config.to),
      subject: message.subject,
      text: message.text,
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

function splitRecipients(to: string): string[] {
  return to
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

function emailHtml(message: NotificationMessage): string {
  const subject = escapeHtml(message.subject);
  const text = escapeHtml(message.text).replace(/\r\n|\r|\n/g, '<br>\n');
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${subject}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',Roboto,Helvetica,Arial,sans-serif">',
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:8px;border-top:4px solid ${ACCENT[message.severity]};padding:24px">`,
    `<h2 style="margin:0 0 16px;font-size:18px;color:#1a1b1e">${subject}</h2>`,
    `<p style="margin:0;font-size:14px;line-height:1.6;color:#373a40">${text}</p>`,
    '</div></body></html>',
  ].join('\n');
}

/** Resend answers `{ id }` on success and `{ statusCode, message, name }` on failure. */
function checkResend(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = (typeof json === 'object' && json !== null ? json : {}) as ResendError;
  const text = answer.message || answer.name;
  return text ? { message: text } : undefined;
}

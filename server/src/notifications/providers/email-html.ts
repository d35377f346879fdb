import type { NotificationMessage } from './provider';
import { escapeHtml } from './text';

/** The card's top border: red for an alert, green for a recovery, blue for anything else. */
const ACCENT: Record<NotificationMessage['severity'], string> = { alert: '#e03131', recovery: '#2f9e44', info: '#1c7ed6' };

/** The link to the monitor's or agent's page, when there is one and it is a web address. */
function webLink(message: NotificationMessage): string | null {
  return message.link && /^https?:\/\//i.test(message.link) ? message.link : null;
}

/** An email's plain text part: the message's text, then the page's address on a line of its own (no words to translate). */
export function emailText(message: NotificationMessage): string {
  const link = webLink(message);
  return link ? `${message.text}\n\n${link}` : message.text;
}

/** An email's HTML part: the same text, escaped, in a simple card with inline styles (mail clients drop style sheets). */
export function emailHtml(message: NotificationMessage): string {
  const subject = escapeHtml(message.subject);
  const text = escapeHtml(message.text).replace(/\r\n|\r|\n/g, '<br>\n');
  const link = webLink(message);
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${subject}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',Roboto,Helvetica,Arial,sans-serif">',
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:8px;border-top:4px solid ${ACCENT[message.severity]};padding:24px">`,
    `<h2 style="margin:0 0 16px;font-size:18px;color:#1a1b1e">${subject}</h2>`,
    `<p style="margin:0;font-size:14px;line-height:1.6;color:#373a40">${text}</p>`,
    ...(link
      ? [`<p style="margin:16px 0 0;font-size:14px"><a href="${escapeHtml(link)}" style="color:#1c7ed6">${escapeHtml(link)}</a></p>`]
      : []),
    '</div></body></html>',
  ].join('\n');
}

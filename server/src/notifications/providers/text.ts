import type { NotificationMessage } from './provider';

const ELLIPSIS = '…';

/** Subject line, then the body: the plain text the chat robots receive. */
export function plainText(message: NotificationMessage, separator = '\n'): string {
  return message.text ? `${message.subject}${separator}${message.text}` : message.subject;
}

/** Cuts `text` to at most `max` UTF-16 units (Telegram's limit unit) without splitting a surrogate pair. */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - ELLIPSIS.length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 on a character boundary, marking the cut with an ellipsis. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const budget = maxBytes - Buffer.byteLength(ELLIPSIS, 'utf8');
  let bytes = 0;
  let result = '';
  for (const character of text) {
    const size = Buffer.byteLength(character, 'utf8');
    if (bytes + size > budget) break;
    bytes += size;
    result += character;
  }
  return result + ELLIPSIS;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

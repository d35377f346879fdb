import { randomUUID } from 'node:crypto';
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

/** Characters a key may keep: PagerDuty's dedup_key and Opsgenie's alias take any text, but a path carries the alias. */
const KEY_UNSAFE = /[^A-Za-z0-9._-]+/g;
/** PagerDuty's limit on dedup_key (Opsgenie's alias allows 512). */
const KEY_MAX = 255;

/**
 * The key an incident service files an alert under (PagerDuty's `dedup_key`, Opsgenie's `alias`), from the message's
 * episode: `vigil-monitor-12-status-3`. An alert and its recovery share it on every instance and every attempt, and
 * the next episode gets a new one, so a late recovery never closes a newer incident. A message without an episode
 * (queued before episodes were recorded) falls back to the target and the alert's kind; a test gets a key of its
 * own delivery, so it never touches a real incident.
 */
export function incidentKey(message: NotificationMessage, deliveryId: string = randomUUID()): string {
  const { target, event } = message;
  const source =
    message.episode ??
    (target.kind === 'test' || target.id === null ? `test:${deliveryId}` : `${target.kind}:${target.id}:${alertKind(event)}`);
  return `vigil-${source.replace(KEY_UNSAFE, '-')}`.slice(0, KEY_MAX);
}

/** What an event is about, as an episode names it: `status`, `cpu`, `memory`, `disk` or `certificate`. */
function alertKind(event: string): string {
  if (event.startsWith('certificate.')) return 'certificate';
  return /^agent\.(cpu|memory|disk)_/.exec(event)?.[1] ?? 'status';
}

/** The colour chat services paint a message's bar, title or button with, by severity (Slack's danger, good and blue). */
export const SEVERITY_COLOURS: Record<NotificationMessage['severity'], string> = {
  alert: '#e01e5a',
  recovery: '#2eb886',
  info: '#439fe0',
};

/** The plain text with the message's link as its last line, cut to `max` UTF-16 units without cutting the link. */
export function plainTextWithLink(message: NotificationMessage, max: number, separator = '\n'): string {
  const link = message.link ? `\n\n${message.link}` : '';
  return truncateChars(plainText(message, separator), max - link.length) + link;
}

/**
 * The Slack-style attachment Mattermost and Rocket.Chat webhooks read: a bar coloured by severity, the target as its
 * title linking to its page, and the text, each cut to what the service keeps.
 */
export function chatAttachment(message: NotificationMessage, textMax: number, titleMax: number) {
  return {
    fallback: truncateChars(plainText(message), textMax),
    color: SEVERITY_COLOURS[message.severity],
    title: truncateChars(message.target.name, titleMax),
    ...(message.link ? { title_link: message.link } : {}),
    ...(message.text ? { text: truncateChars(message.text, textMax) } : {}),
  };
}

import { postJson, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { escapeHtml, plainText, SEVERITY_COLOURS, truncateChars } from './text';

/** Google Chat's limit on a message's text, which the card's paragraph keeps to as well. */
const TEXT_MAX = 4096;
const TITLE_MAX = 200;

/**
 * Google Chat space webhooks (`POST …/v1/spaces/{space}/messages?key=…&token=…`): a card (cardsV2) with the subject
 * as its header and the target as its subtitle, the text with its first line in the severity's colour, and a button
 * to the target's page; `fallbackText` is what notifications show. Google answers 200 with the message; errors are
 * `{ error: { code, message, status } }`.
 */
export const googlechatProvider: ChannelProvider<'googlechat'> = {
  type: 'googlechat',

  send(message, config, context) {
    return postJson(config.webhookUrl, googleChatPayload(message), context, { check: checkGoogleChat });
  },
};

function googleChatPayload(message: NotificationMessage): object {
  const colour = SEVERITY_COLOURS[message.severity];
  const widgets: object[] = [];
  if (message.text) widgets.push({ textParagraph: { text: paragraph(truncateChars(message.text, TEXT_MAX), colour) } });
  if (message.link) {
    widgets.push({
      buttonList: {
        buttons: [{ text: truncateChars(message.target.name, 100), color: rgb(colour), onClick: { openLink: { url: message.link } } }],
      },
    });
  }
  const card = {
    header: { title: truncateChars(message.subject, TITLE_MAX), subtitle: truncateChars(message.target.name, TITLE_MAX) },
    ...(widgets.length > 0 ? { sections: [{ widgets }] } : {}),
  };
  return {
    fallbackText: truncateChars(plainText(message), TEXT_MAX),
    cardsV2: [{ cardId: 'vigil-notification', card }],
  };
}

/** Card text is a subset of HTML: the text escaped, lines as `<br>`, the first one bold in `colour`. */
function paragraph(text: string, colour: string): string {
  const [first, ...rest] = text.split('\n').map(escapeHtml);
  return [`<font color="${colour}"><b>${first}</b></font>`, ...rest].join('<br>');
}

/** `#e01e5a` as the card's colour: red, green and blue between 0 and 1. */
function rgb(hex: string): { red: number; green: number; blue: number; alpha: number } {
  const channel = (offset: number) => Math.round((Number.parseInt(hex.slice(offset, offset + 2), 16) / 255) * 1000) / 1000;
  return { red: channel(1), green: channel(3), blue: channel(5), alpha: 1 };
}

/** Google APIs answer failures as `{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }`. */
function checkGoogleChat(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const error = (json as { error?: { message?: unknown; status?: unknown } } | undefined)?.error;
  if (typeof error?.message !== 'string') return undefined;
  return { message: typeof error.status === 'string' ? `${error.status}: ${error.message}` : error.message };
}

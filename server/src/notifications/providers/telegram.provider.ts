import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { plainText, truncateChars } from './text';

/** sendMessage's limit on the text, in UTF-16 units. */
const MAX_TEXT = 4096;

interface TelegramAnswer {
  ok?: boolean;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** Telegram Bot API `sendMessage`, as plain text (no parse_mode, so nothing needs escaping). */
export const telegramProvider: ChannelProvider<'telegram'> = {
  type: 'telegram',

  send(message, config, context) {
    const url = `${context.apiUrl}/bot${config.botToken}/sendMessage`;
    const body = {
      chat_id: config.chatId,
      text: truncateChars(plainText(message, '\n\n'), MAX_TEXT),
      disable_web_page_preview: true,
    };
    return postJson(url, body, context, { secrets: [config.botToken], check: checkTelegram });
  },
};

/** Telegram answers `{ ok: false, description }` for every failure, whatever the HTTP status. */
function checkTelegram(json: unknown, status: number): Explanation | undefined {
  const answer = answerOf<TelegramAnswer>(json);
  if (answer.ok === true) return undefined;
  if (answer.ok !== false) {
    return status >= 200 && status < 300 ? { message: 'Telegram did not confirm the message' } : undefined;
  }
  let text = answer.description || `Telegram refused the message (HTTP ${status})`;
  const retryAfter = answer.parameters?.retry_after;
  if (typeof retryAfter === 'number' && !text.includes(`retry after ${retryAfter}`)) text += ` (retry after ${retryAfter} s)`;
  const migratedTo = answer.parameters?.migrate_to_chat_id;
  if (migratedTo !== undefined) text += ` (the chat id is now ${migratedTo})`;
  return { message: text, retryAfterMs: typeof retryAfter === 'number' ? retryAfter * 1000 : null };
}

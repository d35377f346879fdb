import { CHANNEL_SPECS } from '@vigil/proto';
import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { truncateChars, truncateUtf8 } from './text';

/** ServerChan's limits: a 32-character title and a 32 KB Markdown body. */
const MAX_TITLE = 32;
const MAX_DESP_BYTES = 32 * 1024;
/** A Server酱³ SendKey names its user: `sctp<uid>t…`. */
const SC3_KEY = /^sctp(\d+)t/i;

/** ServerChan (Server酱 Turbo and Server酱³): a title and a Markdown body, as JSON. */
export const serverchanProvider: ChannelProvider<'serverchan'> = {
  type: 'serverchan',

  send(message, config, context) {
    const body = { title: truncateChars(message.subject, MAX_TITLE), desp: truncateUtf8(markdownBody(message), MAX_DESP_BYTES) };
    return postJson(serverchanUrl(config.sendKey, context.apiUrl), body, context, { secrets: [config.sendKey], check: checkServerChan });
  },
};

/**
 * Where a SendKey is sent: `{apiUrl}/{key}.send`, except that a Server酱³ key goes to its user's own host
 * (`https://<uid>.push.ft07.com/send/<key>.send`). That rule only holds for the real service: a SERVERCHAN_API_URL
 * set by the administrator (a proxy, a test) receives every key.
 */
export function serverchanUrl(sendKey: string, apiUrl: string): string {
  const sc3 = SC3_KEY.exec(sendKey);
  const key = encodeURIComponent(sendKey);
  if (sc3 && apiUrl === CHANNEL_SPECS.serverchan.apiUrl) return `https://${sc3[1]}.push.ft07.com/send/${key}.send`;
  return `${apiUrl}/${key}.send`;
}

/** The text's lines as Markdown paragraphs (a single newline would join them), then the page link. */
function markdownBody(message: NotificationMessage): string {
  const lines = (message.text || message.subject).split('\n');
  if (message.link) lines.push(message.link);
  return lines.join('\n\n');
}

/** ServerChan answers `{ code: 0, message, data }`; a refusal is a non-zero code (`40001`, `bad pushtoken`), often with HTTP 200. */
function checkServerChan(json: unknown, status: number): Explanation | undefined {
  const answer = answerOf<{ code?: unknown; message?: unknown }>(json);
  if (answer.code === 0 && status >= 200 && status < 300) return undefined;
  if (typeof answer.code === 'number' && answer.code !== 0) {
    const text = typeof answer.message === 'string' && answer.message ? answer.message : 'ServerChan refused the message';
    return { message: `${text} (code ${answer.code})` };
  }
  return status >= 200 && status < 300 ? { message: 'ServerChan did not confirm the message' } : undefined;
}

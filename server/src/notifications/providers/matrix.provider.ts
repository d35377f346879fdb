import { randomUUID } from 'node:crypto';
import { answerOf, postJson, requestJson, type Explanation, type PostOptions } from './http';
import { DeliveryError, type ChannelProvider, type NotificationMessage, type SendContext } from './provider';
import { escapeHtml, SEVERITY_COLOURS, truncateChars, truncateUtf8 } from './text';

/**
 * A room event may be 64 KiB in all; the text is cut to 8 KB so that its HTML twin (at worst six bytes for a character
 * such as `"`) still fits beside it.
 */
const TEXT_MAX_BYTES = 8000;
const SUBJECT_MAX = 500;

interface MatrixError {
  errcode?: string;
  error?: string;
  retry_after_ms?: number;
}

/**
 * Matrix Client-Server API: `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}` with the access
 * token as Bearer. The transaction id is the delivery's id, so the homeserver keeps one event however often a delivery
 * is tried. The event is `m.text` with the plain text and its HTML (subject bold in the severity's colour, link to the
 * target's page). A room alias (`#room:server`) is resolved to its id first. Errors are `{ errcode, error }`.
 */
export const matrixProvider: ChannelProvider<'matrix'> = {
  type: 'matrix',

  async send(message, config, context) {
    const base = config.homeserverUrl.replace(/\/+$/, '');
    const options: PostOptions = {
      headers: { authorization: `Bearer ${config.accessToken}` },
      secrets: [config.accessToken],
      check: checkMatrix,
    };
    const roomId = config.roomId.startsWith('#') ? await resolveAlias(base, config.roomId, context, options) : config.roomId;
    const txnId = context.deliveryId ?? randomUUID();
    const url = `${base}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${encodeURIComponent(txnId)}`;
    return postJson(url, matrixEvent(message), context, { ...options, method: 'PUT' });
  },
};

function matrixEvent(message: NotificationMessage): object {
  const subject = truncateChars(message.subject, SUBJECT_MAX);
  const text = truncateUtf8(message.text, TEXT_MAX_BYTES);
  const colour = SEVERITY_COLOURS[message.severity];
  const plain = [subject, ...(text ? [text] : []), ...(message.link ? ['', message.link] : [])];
  const html = [
    `<b><font color="${colour}" data-mx-color="${colour}">${escapeHtml(subject)}</font></b>`,
    ...(text ? text.split('\n').map(escapeHtml) : []),
    ...(message.link ? [`<a href="${escapeHtml(message.link)}">${escapeHtml(message.target.name)}</a>`] : []),
  ];
  return { msgtype: 'm.text', body: plain.join('\n'), format: 'org.matrix.custom.html', formatted_body: html.join('<br>') };
}

/** `GET /_matrix/client/v3/directory/room/{alias}` → `{ room_id }`. */
async function resolveAlias(base: string, alias: string, context: SendContext, options: PostOptions): Promise<string> {
  const { json } = await requestJson(`${base}/_matrix/client/v3/directory/room/${encodeURIComponent(alias)}`, undefined, context, {
    ...options,
    method: 'GET',
  });
  const roomId = (json as { room_id?: unknown } | undefined)?.room_id;
  if (typeof roomId !== 'string' || !roomId.startsWith('!')) {
    throw new DeliveryError(`The homeserver did not resolve the room alias ${alias}`, null, { retryable: false });
  }
  return roomId;
}

/** `{ errcode: 'M_FORBIDDEN', error }`; a 429 (`M_LIMIT_EXCEEDED`) says how long to wait in `retry_after_ms`. */
function checkMatrix(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<MatrixError>(json);
  if (typeof answer.errcode !== 'string') return undefined;
  return {
    message: typeof answer.error === 'string' && answer.error ? `${answer.errcode}: ${answer.error}` : answer.errcode,
    ...(typeof answer.retry_after_ms === 'number' ? { retryAfterMs: answer.retry_after_ms } : {}),
  };
}

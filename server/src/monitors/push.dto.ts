import type { MessageCode } from '@vigil/proto';
import { badRequest } from '../common/api-exception';
import { isCleanText } from '../common/text-rule';

/** Longest `msg` kept from a push. */
export const PUSH_MESSAGE_MAX = 1024;
export const PUSH_PING_MAX_MS = 3_600_000;

/** Uptime Kuma's push query (`?status=up&msg=OK&ping=`), read. */
export interface PushQuery {
  status?: 'up' | 'down';
  msg?: string;
  ping?: number;
}

/** Each field's message when its value is refused (a repeated field, bad text or a value out of its rule). */
const FIELD_MESSAGES = { status: 'push.statusInvalid', msg: 'push.messageTooLong', ping: 'push.pingInvalid' } as const;
type Field = keyof typeof FIELD_MESSAGES;
const FIELDS = Object.keys(FIELD_MESSAGES) as Field[];

/** Empty values mean "not given", as Kuma's own URLs send them (`&ping=`). */
const given = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);

function readField(field: Field, value: string): PushQuery[Field] | null {
  if (field === 'msg') return value.length <= PUSH_MESSAGE_MAX ? value : null;
  const present = given(value);
  if (present === undefined) return undefined;
  if (field === 'status') {
    const status = present.trim().toLowerCase();
    return status === 'up' || status === 'down' ? status : null;
  }
  const ping = Number(present);
  return Number.isFinite(ping) && ping >= 0 && ping <= PUSH_PING_MAX_MS ? ping : null;
}

/**
 * Reads a push's query under the API's rules for any query: text with a NUL or an unpaired surrogate is refused
 * (a known field with its own message, anything else as bad text), unknown fields are ignored, and the first refused
 * field (in the order status, msg, ping) answers 400 with its message.
 */
export function readPushQuery(search: URLSearchParams): PushQuery {
  for (const [key, value] of search) {
    if (isCleanText(key) && isCleanText(value)) continue;
    const field = FIELDS.find((name) => name === key);
    throw badRequest((field ? FIELD_MESSAGES[field] : 'validation.textInvalid') satisfies MessageCode);
  }
  const query: PushQuery = {};
  for (const field of FIELDS) {
    const values = search.getAll(field);
    if (values.length === 0) continue;
    const read = values.length === 1 ? readField(field, values[0]) : null;
    if (read === null) throw badRequest(FIELD_MESSAGES[field]);
    if (read !== undefined) Object.assign(query, { [field]: read });
  }
  return query;
}

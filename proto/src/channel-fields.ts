/**
 * The building blocks of a channel spec (channels.ts): field kinds, the rules a field's text may have to follow, and
 * the one validation every side runs (`validateChannelConfig`), so the server's 400 and the dialog's red text agree.
 */
import type { MessageCode } from './messages';

/** A value read back in place of a stored secret; sending it back on edit keeps the stored one. */
export const SECRET_MASK = '••••••••';

export type ChannelFieldKind = 'text' | 'url' | 'secret' | 'number' | 'boolean' | 'select' | 'list' | 'map';

export interface ChannelFieldSpec {
  name: string;
  kind: ChannelFieldKind;
  required?: boolean;
  /** What an absent or empty value becomes; a field with a default is always present once validated. */
  default?: string | number | boolean;
  /** A `url` or `map` field whose value is a secret (a webhook URL that names the robot, header values); `secret` fields always are. */
  secret?: boolean;
  /** Whether the dictionaries have `notifications.help.<type>.<name>` for it. */
  help?: boolean;
  /** An example shown in an empty input; not translated. */
  placeholder?: string;
  /** `list`: one item per line (text items may hold commas and semicolons); otherwise commas, semicolons and lines separate. */
  lines?: boolean;
  /** `select`: the values allowed. */
  options?: readonly string[];
  /** `select`: read in capitals (`aaaa` is `AAAA`). */
  uppercase?: boolean;
  /** `text`: may hold line breaks (an SQL query, a message to send) and is kept as typed, spaces included. */
  multiline?: boolean;
  /**
   * Only a value of the kind's own JSON type is read (text a string, a flag true or false, a number a number, a list
   * an array), and blank text is a value checked like any other rather than "absent": the first monitor types' API.
   */
  strict?: boolean;
  /** `number`: the range; `text`/`secret`: the length (default 1–500); `list`: the item count (default at most 50). */
  min?: number;
  max?: number;
  /** `text`, `secret` and each item of a `list`: a rule the trimmed value must pass. */
  valid?: (value: string) => boolean;
  /** Messages of this field; absent ones are the generic `notifications.field*` codes. */
  codes?: { required?: MessageCode; invalid?: MessageCode; reenter?: MessageCode };
}

export interface ChannelSpec {
  /** Where the type is listed in the type picker. */
  family: 'email' | 'chat' | 'push' | 'incident' | 'webhook';
  fields: readonly ChannelFieldSpec[];
  /** A hosted service's base address; `<TYPE>_API_URL` overrides it (tests, corporate proxies). */
  apiUrl?: string;
  /** A rule across fields, run after every field passed its own. */
  check?: (config: Record<string, unknown>) => ChannelConfigProblem | null;
}

/** What `validateFields` reads: a channel's spec, or a monitor type's settings (monitor-type-specs.ts). */
export type FieldSet = Pick<ChannelSpec, 'fields' | 'check'>;

export interface ChannelConfigProblem {
  /** The field at fault; null for the config as a whole. */
  field: string | null;
  code: MessageCode;
}

export type ChannelValidation = { ok: true; config: Record<string, unknown> } | ({ ok: false } & ChannelConfigProblem);

/** Rules named by several specs. */
export const CHANNEL_RULES = {
  /** Telegram bot token: `<bot id>:<secret>`. */
  botToken: /^\d{5,12}:[A-Za-z0-9_-]{30,50}$/,
  /** Pragmatic address check: something@domain.tld, no spaces or header-breaking characters. */
  email: /^[^\s@<>()[\]\\,;:"]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)$/iu,
  /** `Display Name <address>`; the name may be quoted and must not break the From header. */
  namedSender: /^([^<>\p{Cc}]+?)\s*<([^<>]+)>$/u,
  /** Signing secrets (DingTalk `SEC…`, Feishu) are printable ASCII without spaces. */
  signingSecret: /^[\x21-\x7e]{1,200}$/,
  /** RFC 9110 token characters. */
  headerName: /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/,
  /** Visible ASCII, spaces, tabs and Latin-1: what an HTTP client can send (no CR/LF, so no header injection). */
  headerValue: /^[\t\x20-\x7e\x80-\xff]{0,4096}$/,
  /** A host name or an IPv4/IPv6 address (no scheme, no port). */
  host: /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9A-Fa-f:.]+\]?)$/,
  /** An API token without spaces or control characters. */
  token: /^[\x21-\x7e]{1,500}$/,
} as const;

/** An absolute http(s) address without spaces, at most 2,048 characters. */
export function isHttpUrl(value: string): boolean {
  if (value.length > 2048 || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A sender: an address, or `Name <address>` with a name that is not blank once quotes are dropped. */
export function isSender(from: string): boolean {
  if (CHANNEL_RULES.email.test(from)) return true;
  const named = CHANNEL_RULES.namedSender.exec(from);
  return named !== null && named[1].replace(/"/g, '').trim() !== '' && CHANNEL_RULES.email.test(named[2].trim());
}

export const isEmail = (value: string): boolean => CHANNEL_RULES.email.test(value);

const TEXT_MAX = 500;
const LIST_MAX = 50;
const MAP_MAX = 30;
/** Headers that describe the connection or the framing: ours to set, not the user's. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);

/** Whether a field's value is kept masked in reads. */
export function isSecretField(field: ChannelFieldSpec): boolean {
  return field.kind === 'secret' || field.secret === true;
}

type Read = { ok: true; value: unknown } | { ok: false; code: MessageCode };
type Options = { masked: boolean };

/**
 * Checks and normalises one config against its fields: text trimmed, numbers and flags from their text, lists from
 * comma- or line-separated text, defaults filled, unknown keys dropped. With `masked`, a secret sent back as the mask
 * (the dialog editing a saved channel) passes as it is: the server restores it before its own run.
 */
export function validateFields(spec: FieldSet, raw: unknown, options: Options = { masked: false }): ChannelValidation {
  const { config, problems } = readFields(spec, raw, options);
  return problems.length > 0 ? { ok: false, ...problems[0] } : { ok: true, config };
}

/** Every problem of a config, in field order (the dialog marks them all at once); none when it is valid. */
export function fieldProblems(spec: FieldSet, raw: unknown, options: Options = { masked: false }): ChannelConfigProblem[] {
  return readFields(spec, raw, options).problems;
}

function readFields(spec: FieldSet, raw: unknown, options: Options): { config: Record<string, unknown>; problems: ChannelConfigProblem[] } {
  const input = readObject(raw);
  if (!input) return { config: {}, problems: [{ field: null, code: 'notifications.configInvalid' }] };
  const config: Record<string, unknown> = {};
  const problems: ChannelConfigProblem[] = [];
  for (const field of spec.fields) {
    const read = readField(field, input[field.name], options);
    if (!read.ok) problems.push({ field: field.name, code: read.code });
    else if (read.value !== undefined) config[field.name] = read.value;
  }
  const across = problems.length === 0 ? (spec.check?.(config) ?? null) : null;
  return { config, problems: across ? [across] : problems };
}

/** The JSON type each kind's strict fields take (`strict`). */
const STRICT_KINDS: Record<ChannelFieldKind, (value: unknown) => boolean> = {
  text: (value) => typeof value === 'string',
  url: (value) => typeof value === 'string',
  secret: (value) => typeof value === 'string',
  select: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
  list: Array.isArray,
  map: (value) => typeof value === 'object' && !Array.isArray(value),
};

const KIND_CODES: Record<ChannelFieldKind, MessageCode> = {
  text: 'notifications.fieldText',
  url: 'notifications.fieldUrl',
  secret: 'notifications.fieldText',
  select: 'notifications.fieldSelect',
  number: 'notifications.fieldNumber',
  boolean: 'notifications.fieldBoolean',
  list: 'notifications.fieldList',
  map: 'notifications.fieldMap',
};

/** Whether a value is one a field can read at all: any value, or for a `strict` field only its kind's JSON type. */
export function isOfKind(field: ChannelFieldSpec, value: unknown): boolean {
  return !field.strict || value === undefined || value === null || STRICT_KINDS[field.kind](value);
}

/** A field's most basic message: for a value left out where it is required, or a value of another kind. */
export function kindCode(field: ChannelFieldSpec): MessageCode {
  return (field.required ? field.codes?.required : undefined) ?? field.codes?.invalid ?? KIND_CODES[field.kind];
}

function readField(field: ChannelFieldSpec, value: unknown, options: Options): Read {
  const required = (): Read =>
    field.required ? { ok: false, code: field.codes?.required ?? 'notifications.fieldRequired' } : { ok: true, value: undefined };
  const invalid = (code: MessageCode): Read => ({ ok: false, code: field.codes?.invalid ?? code });
  if (!isOfKind(field, value)) return { ok: false, code: kindCode(field) };
  const absent = field.strict ? value === undefined || value === null : isBlank(value);
  if (absent) return field.default !== undefined ? readField(field, field.default, options) : required();
  const keptSecret = options.masked && isSecretField(field) && typeof value === 'string' && value.includes(SECRET_MASK);

  switch (field.kind) {
    case 'text':
    case 'secret': {
      const text = field.multiline && typeof value === 'string' ? value : asText(value);
      if (text === null) return invalid('notifications.fieldText');
      if (keptSecret) return { ok: true, value: text };
      if (text.length < (field.min ?? 1) || text.length > (field.max ?? TEXT_MAX) || (!field.multiline && /[\r\n]/.test(text))) {
        return invalid('notifications.fieldText');
      }
      return field.valid && !field.valid(text) ? invalid('notifications.fieldInvalid') : { ok: true, value: text };
    }
    case 'url': {
      const text = asText(value);
      // A URL read back with its credentials masked keeps them (the server puts the stored ones back).
      if (text !== null && options.masked && text.includes(SECRET_MASK)) return { ok: true, value: text };
      return text !== null && isHttpUrl(text) ? { ok: true, value: text } : invalid('notifications.fieldUrl');
    }
    case 'number': {
      const number = typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value) : value;
      const ok =
        typeof number === 'number' &&
        Number.isInteger(number) &&
        number >= (field.min ?? Number.MIN_SAFE_INTEGER) &&
        number <= (field.max ?? Number.MAX_SAFE_INTEGER);
      return ok ? { ok: true, value: number } : invalid('notifications.fieldNumber');
    }
    case 'boolean': {
      if (value === true || value === 'true' || value === 1 || value === '1') return { ok: true, value: true };
      if (value === false || value === 'false' || value === 0 || value === '0') return { ok: true, value: false };
      return invalid('notifications.fieldBoolean');
    }
    case 'select': {
      const read = asText(value);
      const text = field.uppercase && read !== null ? read.toUpperCase() : read;
      return text !== null && (field.options ?? []).includes(text) ? { ok: true, value: text } : invalid('notifications.fieldSelect');
    }
    case 'list': {
      const items = asList(value, field.lines === true);
      if (items === null) return invalid('notifications.fieldList');
      if (items.length === 0) return required();
      const ok =
        items.length <= (field.max ?? LIST_MAX) &&
        items.every((item) => item.length <= TEXT_MAX && !/[\r\n]/.test(item) && (!field.valid || field.valid(item)));
      return ok ? { ok: true, value: items } : invalid('notifications.fieldList');
    }
    case 'map': {
      const map = asHeaderMap(value, options.masked && field.secret === true);
      if (map === null) return invalid('notifications.fieldMap');
      return Object.keys(map).length === 0 ? required() : { ok: true, value: map };
    }
  }
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function readObject(raw: unknown): Record<string, unknown> | null {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Trimmed text; a finite number becomes its decimal text (ids are often pasted as numbers). */
function asText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A list as an array of texts, or as text separated by commas, semicolons or lines (`lines`: by lines only); blanks dropped. */
function asList(value: unknown, lines: boolean): string[] | null {
  const parts = typeof value === 'string' ? value.split(lines ? /\r?\n/ : /[,;\n]/) : Array.isArray(value) ? value : null;
  if (parts === null || parts.some((part) => typeof part !== 'string' && typeof part !== 'number')) return null;
  const items = parts.map((part) => String(part).trim()).filter((part) => part !== '');
  // Lines are steps in order, where a repeat means something (click "next" twice); other lists are sets.
  return lines ? items : [...new Set(items)];
}

/**
 * HTTP headers as an object of names to text values, or that object in JSON. Rows with a blank name are dropped; names
 * follow RFC 9110 and are unique regardless of case; framing headers are ours. Null when invalid.
 */
function asHeaderMap(value: unknown, masked: boolean): Record<string, string> | null {
  const object = readObject(value);
  if (object === null) return null;
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [rawName, rawValue] of Object.entries(object)) {
    const name = rawName.trim();
    if (name === '') continue;
    if (typeof rawValue !== 'string') return null;
    const headerValue = rawValue.trim();
    const lower = name.toLowerCase();
    const valueOk = CHANNEL_RULES.headerValue.test(headerValue) || (masked && headerValue === SECRET_MASK);
    if (!CHANNEL_RULES.headerName.test(name) || !valueOk || RESERVED_HEADERS.has(lower) || seen.has(lower)) return null;
    seen.add(lower);
    headers[name] = headerValue;
  }
  return Object.keys(headers).length > MAP_MAX ? null : headers;
}

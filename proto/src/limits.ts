/** Input limits shared by server validation and client forms. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
/** Letters, digits and `_ . -`; no spaces so names are safe in logs and URLs. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;

/** Largest JSON body the API accepts on any route (answers 413 above it). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Deepest nesting of arrays/objects a JSON body may have (400 beyond); our deepest body (agent reports) uses 4. */
export const JSON_DEPTH_MAX = 32;
/**
 * Most members of one array or object in a JSON body, and most values in all (400 beyond), for a route that declares
 * no list of its own: what the server parses and validates within its ~20 ms budget per request.
 */
export const JSON_WIDTH_MAX = 1_000;
export const JSON_VALUES_MAX = 20_000;

/** What a JSON body may be: its size (413 above), nesting, members of one list or object, and values in all (400 above). */
export interface BodyLimit {
  bytes: number;
  depth: number;
  width: number;
  values: number;
}

const SHAPE = { depth: JSON_DEPTH_MAX, width: JSON_WIDTH_MAX, values: JSON_VALUES_MAX } as const;
/** Every monitor and agent in one selection (a status page holds up to 100,000 components). */
const SELECTION_ITEMS = 100_000;

/**
 * JSON body limits by what a route carries (a route declares its own with `@BodyLimit(name)`; 'default' otherwise),
 * so an anonymous caller cannot make the server read and parse a megabyte where a few hundred bytes do. Room is left
 * for JSON escapes (`\u4e2d` is 6 bytes for 1 character).
 */
export const BODY_LIMITS = {
  /** Login: a username and a password. */
  credentials: { bytes: 2 * 1024, ...SHAPE },
  /** Register, user create/update, password change: adds an email and a role. */
  account: { bytes: 4 * 1024, ...SHAPE },
  /** Every route that declares none (settings, pause/resume, display keys, agent rename...). */
  default: { bytes: 16 * 1024, ...SHAPE },
  /** Notification channels, their tests and settings, templates; agent enrollment and xugou registration. */
  medium: { bytes: 64 * 1024, ...SHAPE },
  /** Monitors (64 KB body, 50 headers), buffered agent reports. */
  large: { bytes: BODY_LIMIT_BYTES, ...SHAPE },
  /** The spec's status configuration: 50,000 characters of CSS and every monitor's and agent's id. */
  selection: { bytes: BODY_LIMIT_BYTES, depth: 4, width: SELECTION_ITEMS, values: 2 * SELECTION_ITEMS + 1_000 },
  /** A maintenance window: its schedule and a scope of up to 100,000 ids of each kind (MAINTENANCE_LIMITS.idsMax). */
  scope: { bytes: 4 * BODY_LIMIT_BYTES, depth: 4, width: SELECTION_ITEMS, values: 3 * SELECTION_ITEMS + 1_000 },
  /** A status page: its settings and groups holding every monitor and agent as `{ "type": "monitor", "id": 12345 }`. */
  page: { bytes: 4 * BODY_LIMIT_BYTES, depth: 6, width: SELECTION_ITEMS, values: 3 * SELECTION_ITEMS + 2_000 },
} as const satisfies Record<string, BodyLimit>;

export type BodyLimitName = keyof typeof BODY_LIMITS;

/**
 * Login limits: failed logins counted per address + username and per address (higher: offices share an address).
 * The failure that reaches a bucket's allowance blocks it for the base delay, each further one for twice as long, up
 * to the maximum; a bucket is forgotten after its last block ends and this long has passed since its last failure.
 */
export const LOGIN_FREE_FAILURES_PER_PAIR = 5;
export const LOGIN_FREE_FAILURES_PER_ADDRESS = 20;
export const LOGIN_BLOCK_BASE_MS = 30_000;
export const LOGIN_BLOCK_MAX_MS = 15 * 60 * 1000;
export const LOGIN_FORGET_AFTER_MS = 15 * 60 * 1000;

/** The spec's refresh interval, used only while the live socket is down. */
export const POLL_INTERVAL_MS = 60_000;

/** Paging of list endpoints such as `GET /api/users`. */
export const PAGE_SIZE_DEFAULT = 100;
export const PAGE_SIZE_MAX = 500;

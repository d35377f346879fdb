/** Input limits shared by server validation and client forms. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
/** Letters, digits and `_ . -`; no spaces so names are safe in logs and URLs. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;

/** Largest JSON body the API accepts (answers 413 above it). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

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

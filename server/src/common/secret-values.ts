import { SECRET_MASK } from '@vigil/proto';

/**
 * Names of query parameters and headers whose values are credentials: `token`, `access_token`, `api_key`, `key`,
 * `secret`, `password`, `sig`, `signature`, `Authorization`, `Proxy-Authorization`, `Cookie`, `X-Api-Key`,
 * `X-Auth-Token`… Matching a part of the name hides a few harmless values too, which only costs a retype.
 */
const SECRET_NAME = /token|key|secret|passw|pwd|sig|auth|credential|session|cookie/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Whether a value read back from a form is the mask (also percent-encoded, as a URL parser leaves it). */
export function isMask(value: string): boolean {
  if (value === SECRET_MASK) return true;
  try {
    return decodeURIComponent(value) === SECRET_MASK;
  } catch {
    return false;
  }
}

/** Whether any part of a URL is the mask. */
export function hasMaskedPart(url: string): boolean {
  return url.includes(SECRET_MASK) || url.includes(encodeURIComponent(SECRET_MASK));
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The raw query pieces (`name=value`), with the value of each secret-looking name replaced by `replace(value)`. */
function mapQuery(search: string, replace: (value: string, name: string, index: number) => string): string {
  if (search.length <= 1) return search;
  const pieces = search
    .slice(1)
    .split('&')
    .map((piece, index) => {
      const equals = piece.indexOf('=');
      if (equals === -1) return piece;
      const name = piece.slice(0, equals);
      const value = piece.slice(equals + 1);
      return value !== '' && isSecretName(safeDecode(name)) ? `${name}=${replace(value, name, index)}` : piece;
    });
  return `?${pieces.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A URL as reads show it: credentials in it (`user:pass@`, the values of secret-looking query parameters) replaced
 * by the mask. Host and path come from the WHATWG parser, as the HTTP client reads them. Not a URL: masked whole.
 */
export function maskUrl(url: string): string {
  const parsed = parse(url);
  if (!parsed) return SECRET_MASK;
  const userinfo = parsed.username || parsed.password ? `${SECRET_MASK}@` : '';
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${mapQuery(parsed.search, () => SECRET_MASK)}${parsed.hash}`;
}

/**
 * Where a URL sends what it carries: scheme, host, port, path and query, leaving out its credentials (userinfo and
 * the values of secret-looking parameters). Null when it is not a URL.
 */
export function urlDestination(url: string): string | null {
  const parsed = parse(url);
  if (!parsed) return null;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${mapQuery(parsed.search, () => '')}`;
}

/** Whether two URLs have the same destination (see urlDestination). */
export function sameDestination(a: string, b: string): boolean {
  const first = urlDestination(a);
  return first !== null && first === urlDestination(b);
}

/**
 * An edited URL with its masked credentials put back from the stored one. Only when the destination is unchanged:
 * a saved credential is never sent anywhere else. Null when a masked part cannot be put back (nothing stored, the
 * destination changed, or the stored URL has no such part), so the user must type it again.
 */
export function restoreUrl(incoming: string, stored: string | null): string | null {
  if (!hasMaskedPart(incoming)) return incoming;
  const edited = parse(incoming);
  const saved = stored === null ? null : parse(stored);
  if (!edited || !saved || !sameDestination(incoming, stored!)) return null;
  // Reads show the whole userinfo as one mask (`••••••••@`), so a masked username stands for the stored userinfo.
  const userinfoOf = (url: URL) => (url.username || url.password ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '');
  let userinfo = userinfoOf(edited);
  if (edited.username && isMask(edited.username) && (!edited.password || isMask(edited.password))) {
    userinfo = userinfoOf(saved);
    if (!userinfo) return null;
  } else if (hasMaskedPart(userinfo)) {
    return null;
  }
  // Same destination, so the query has the same names in the same order: each masked value takes the stored one.
  const storedValues = new Map<number, string>();
  mapQuery(saved.search, (value, _name, index) => (storedValues.set(index, value), value));
  let missing = false;
  const search = mapQuery(edited.search, (value, _name, index) => {
    if (!isMask(value)) return value;
    const kept = storedValues.get(index);
    if (kept === undefined) missing = true;
    return kept ?? value;
  });
  if (missing || hasMaskedPart(search) || hasMaskedPart(edited.pathname) || hasMaskedPart(edited.host)) return null;
  return `${edited.protocol}//${userinfo}${edited.host}${edited.pathname}${search}${edited.hash}`;
}

/** Headers as reads show them: the values of secret-looking names (or of every name, with `all`) masked. */
export function maskHeaders(headers: Record<string, string>, all = false): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, value !== '' && (all || isSecretName(name)) ? SECRET_MASK : value]),
  );
}

/**
 * Edited headers with each masked value put back from the stored header of the same name (any case), or the name
 * of the first masked header that cannot be put back: nothing stored under that name, or `keep` false (the
 * destination changed).
 */
export function restoreHeaders(
  incoming: Record<string, unknown>,
  stored: Record<string, unknown>,
  keep: boolean,
): { ok: true; headers: Record<string, unknown> } | { ok: false; name: string } {
  const saved = new Map(Object.entries(stored).map(([name, value]) => [name.trim().toLowerCase(), value]));
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (typeof value !== 'string' || !isMask(value.trim())) {
      headers[name] = value;
      continue;
    }
    const kept = saved.get(name.trim().toLowerCase());
    if (!keep || typeof kept !== 'string') return { ok: false, name };
    headers[name] = kept;
  }
  return { ok: true, headers };
}

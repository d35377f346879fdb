/** A push URL's token segment (Uptime Kuma's `/api/push/<token>`), in any case and even with an encoded slash. */
const PUSH_TOKEN = /(^|\/)(push)(\/|%2f)[^/]+/gi;

/** Beyond this a path is cut: a log line stays one short line whatever a caller sends. */
const PATH_MAX = 512;

/**
 * A request's path as logs show it. The query is left out whole (display keys, subscription confirmations and SSO codes
 * travel there) and so is a push token, which is the monitor's credential.
 */
export function loggedPath(url: string): string {
  const path = url.split('?', 1)[0].replace(PUSH_TOKEN, '$1$2$3{token}');
  return path.length > PATH_MAX ? `${path.slice(0, PATH_MAX)}…` : path;
}

import { badRequest } from '../common/api-exception';
import { hasMaskedPart, isMask, isSecretName, restoreHeaders, restoreUrl, sameDestination } from '../common/secret-values';
import type { MonitorRow } from './monitor.types';

/**
 * The URL and headers of an edit with masked credentials put back from the stored monitor. A stored credential is
 * only sent where it was saved for: with another destination (scheme, host, port, path or plain query; see
 * urlDestination) every masked value must be typed again, refused naming the field.
 */
export function keptSecrets(
  current: Pick<MonitorRow, 'url' | 'headers'> | null,
  url: string | undefined,
  headers: Record<string, string> | undefined,
): { url: string | undefined; headers: Record<string, string> | undefined } {
  const targetUrl = url ?? current?.url;
  let keptUrl = url;
  if (url !== undefined && hasMaskedPart(url)) {
    keptUrl = restoreUrl(url, current?.url ?? null) ?? undefined;
    if (keptUrl === undefined) throw badRequest('monitors.urlCredentialsReenter');
  }
  const sameTarget = current !== null && targetUrl !== undefined && sameDestination(targetUrl, current.url);
  // An edit that leaves the headers out keeps them: stored credentials must not follow a new destination that way.
  if (
    headers === undefined &&
    current &&
    !sameTarget &&
    Object.entries(current.headers ?? {}).some(([name, value]) => value !== '' && isSecretName(name))
  ) {
    throw badRequest('monitors.headersReenter');
  }
  if (!headers || !Object.values(headers).some((value) => isMask(value.trim()))) return { url: keptUrl, headers };
  const restored = restoreHeaders(headers, current?.headers ?? {}, sameTarget);
  if (!restored.ok) throw badRequest('monitors.headersReenter');
  return { url: keptUrl, headers: restored.headers as Record<string, string> };
}

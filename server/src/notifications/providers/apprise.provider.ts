import { postJson, statusLine, urlSecrets, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { truncateUtf8 } from './text';
import { joinPath } from './url-query';

/** Far below the Apprise API's 3 MB request limit; each service's own limit is Apprise's to apply. */
const MAX_BODY_BYTES = 32 * 1024;
/** Apprise's message types: they pick the icon and colour each service shows. */
const TYPES: Record<NotificationMessage['severity'], 'failure' | 'success' | 'info'> = {
  alert: 'failure',
  recovery: 'success',
  info: 'info',
};

/**
 * An Apprise API server (caronc/apprise-api): with Apprise URLs, the stateless `POST /notify/` carrying them; else
 * `POST /notify/<key>` for a configuration saved on the server. The URLs hold each service's tokens, so they are a
 * secret: never in an error, and only ever sent to the server they were saved with (secrets.ts).
 */
export const appriseProvider: ChannelProvider<'apprise'> = {
  type: 'apprise',

  send(message, config, context) {
    const content = {
      title: message.subject,
      body: truncateUtf8(withLink(message, message.text || message.subject), MAX_BODY_BYTES),
      type: TYPES[message.severity],
      format: 'text',
    };
    const [path, body] =
      config.urls !== undefined
        ? ['notify/', { urls: config.urls, ...content }]
        : [`notify/${encodeURIComponent(config.configKey ?? '')}`, content];
    return postJson(joinPath(config.serverUrl, path), body, context, {
      // Errors come back as JSON `{ error }` only when asked for.
      headers: { accept: 'application/json' },
      secrets: appriseSecrets(config.urls),
      check: checkApprise,
    });
  },
};

function withLink(message: NotificationMessage, text: string): string {
  return message.link ? `${text}\n\n${message.link}` : text;
}

/** The URLs as given, each URL, and each URL's credential-looking parts. */
function appriseSecrets(urls: string | undefined): string[] {
  if (!urls) return [];
  return [urls, ...urls.split(/[\s,]+/).flatMap((url) => (url ? urlSecrets(url) : []))];
}

/**
 * The Apprise API answers 200 when every service took the message, 204 when it had nothing to send to (no valid URL,
 * no configuration under the key), 424 `{ error, details }` when a service refused, 400 `{ error }` for a bad request.
 * Only `error`, a fixed sentence, is shown: `details` is Apprise's log, which names the services. A 424 is not tried
 * again, as the services that did take the message would get it twice.
 */
function checkApprise(json: unknown, status: number): Explanation | undefined {
  if (status === 204)
    return {
      message: `${statusLine(status)}: Apprise sent nothing (no valid Apprise URL, or no configuration under the key)`,
      retryable: false,
    };
  if (status >= 200 && status < 300) return undefined;
  const error = typeof json === 'object' && json !== null ? (json as { error?: unknown }).error : undefined;
  return typeof error === 'string' && error !== '' ? { message: `${statusLine(status)}: ${error}` } : undefined;
}

import { answerOf, postJson, statusLine, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { joinPath } from './url-query';

/** The notify service that shows in Home Assistant's own sidebar; it takes no `data` and refuses the call when given one. */
const PERSISTENT = 'persistent_notification';

/**
 * Home Assistant's REST API, `POST /api/services/notify/<service>` with a long-lived access token. The page link opens
 * on a tap in the companion apps: `url` on iOS, `clickAction` on Android.
 */
export const homeassistantProvider: ChannelProvider<'homeassistant'> = {
  type: 'homeassistant',

  send(message, config, context) {
    const link = message.link;
    const body =
      config.service === PERSISTENT
        ? { title: message.subject, message: [message.text || message.subject, link].filter(Boolean).join('\n\n') }
        : { title: message.subject, message: message.text || message.subject, ...(link ? { data: { url: link, clickAction: link } } : {}) };
    return postJson(joinPath(config.serverUrl, `api/services/notify/${config.service}`), body, context, {
      headers: { authorization: `Bearer ${config.accessToken}` },
      secrets: [config.accessToken],
      check: checkHomeAssistant,
    });
  },
};

/** Home Assistant refuses with a status (401 a wrong token, 400 an unknown service) and sometimes `{ message }`. */
function checkHomeAssistant(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<{ message?: unknown }>(json);
  return typeof answer.message === 'string' && answer.message ? { message: `${statusLine(status)}: ${answer.message}` } : undefined;
}

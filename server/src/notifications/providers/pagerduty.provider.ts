import { answerOf, postJson, statusLine, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { incidentKey, truncateChars } from './text';

/** PagerDuty's limit on `payload.summary`, the alert's title, in characters. */
const MAX_SUMMARY = 1024;
/** The text in `custom_details`: far below the event's 512 KB limit, and more than any template writes. */
const MAX_DETAILS = 16_000;

interface PagerDutyAnswer {
  status?: unknown;
  message?: unknown;
  errors?: unknown;
}

/**
 * PagerDuty Events API v2 (`POST /v2/enqueue`): an alert triggers an incident and its recovery resolves it, both under
 * one `dedup_key` per alert episode (`incidentKey`), so retries and other instances never open a second incident and
 * a late recovery never resolves a newer one; acknowledging the alert in Vigil acknowledges the incident. A test
 * triggers an `info` alert under a key of its own, which the user resolves in PagerDuty.
 */
export const pagerdutyProvider: ChannelProvider<'pagerduty'> = {
  type: 'pagerduty',

  send(message, config, context) {
    const keys = { routing_key: config.integrationKey, dedup_key: incidentKey(message, context.deliveryId) };
    // A resolve or an acknowledgement needs only the key; PagerDuty ignores a payload on them.
    const event =
      message.event === 'alert.acknowledged'
        ? { ...keys, event_action: 'acknowledge' }
        : message.severity === 'recovery'
          ? { ...keys, event_action: 'resolve' }
          : { ...keys, event_action: 'trigger', ...trigger(message, config.severity) };
    return postJson(`${context.apiUrl}/v2/enqueue`, event, context, { secrets: [config.integrationKey], check: checkPagerDuty });
  },
};

function trigger(message: NotificationMessage, severity: string) {
  const link = message.link && /^https?:\/\//i.test(message.link) ? message.link : undefined;
  return {
    payload: {
      summary: truncateChars(message.subject.trim() || message.event, MAX_SUMMARY),
      source: message.target.name || 'Vigil',
      severity: message.severity === 'info' ? 'info' : severity,
      timestamp: message.at,
      component: message.target.kind,
      class: message.event,
      custom_details: { details: truncateChars(message.text, MAX_DETAILS), ...(link ? { link } : {}) },
    },
    client: 'Vigil',
    ...(link ? { client_url: link, links: [{ href: link, text: message.target.name || link }] } : {}),
  };
}

/**
 * PagerDuty accepts with 202 `{ status: 'success', dedup_key }` and refuses an event with 400 `{ status: 'invalid
 * event', message, errors: [...] }` (not tried again); 429 and 5xx are tried again.
 */
function checkPagerDuty(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const answer = answerOf<PagerDutyAnswer>(json);
  const errors = Array.isArray(answer.errors) ? answer.errors.filter((error): error is string => typeof error === 'string') : [];
  const reason = [answer.message, answer.status].find((part): part is string => typeof part === 'string' && part !== '');
  if (!reason && errors.length === 0) return undefined;
  return { message: `${statusLine(status)}: ${[reason, errors.join('; ')].filter(Boolean).join(': ')}` };
}

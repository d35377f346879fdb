import { postJson, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { truncateChars, truncateUtf8 } from './text';

/**
 * Teams refuses a message over ~28 KB. The text gets most of it, the card's frame and the subject the rest, with room
 * for JSON escaping and paragraph breaks tripling a text of quotes and line breaks.
 */
const TEXT_MAX_BYTES = 8_000;
const SUBJECT_MAX = 500;

/** Adaptive Card container styles, by severity: Teams paints them red, green and grey-blue. */
const STYLE: Record<NotificationMessage['severity'], string> = { alert: 'attention', recovery: 'good', info: 'emphasis' };
const TITLE_COLOUR: Record<NotificationMessage['severity'], string> = { alert: 'attention', recovery: 'good', info: 'default' };

/**
 * Microsoft Teams through a Workflows (Power Automate) webhook, "Post to a channel when a webhook request is
 * received": an Adaptive Card in the message envelope the workflow expects. The subject sits in a band coloured by
 * severity, then the text, a line naming the target and the time (which Teams shows in the reader's zone), and a
 * button to the target's page. The workflow answers 202; errors are `{ error: { code, message } }`.
 */
export const teamsProvider: ChannelProvider<'teams'> = {
  type: 'teams',

  send(message, config, context) {
    return postJson(config.webhookUrl, teamsPayload(message), context, { check: checkTeams });
  },
};

function teamsPayload(message: NotificationMessage): object {
  const body: object[] = [
    {
      type: 'Container',
      style: STYLE[message.severity],
      bleed: true,
      items: [
        {
          type: 'TextBlock',
          text: truncateChars(message.subject, SUBJECT_MAX),
          size: 'Large',
          weight: 'Bolder',
          color: TITLE_COLOUR[message.severity],
          wrap: true,
        },
      ],
    },
  ];
  // Lines as paragraphs: hosts differ on whether a single line break in a TextBlock's markdown shows.
  const paragraphs = truncateUtf8(message.text, TEXT_MAX_BYTES)
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (paragraphs.length > 0) body.push({ type: 'TextBlock', text: paragraphs.join('\n\n'), wrap: true });
  body.push({ type: 'TextBlock', text: contextLine(message), isSubtle: true, size: 'Small', wrap: true, spacing: 'Small' });
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    ...(message.link ? { actions: [{ type: 'Action.OpenUrl', title: truncateChars(message.target.name, 100), url: message.link }] } : {}),
    msteams: { width: 'Full' },
  };
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}

/** `Shop API · {{DATE(…)}} {{TIME(…)}}`: Adaptive Cards format the time in the reader's language and zone. */
function contextLine(message: NotificationMessage): string {
  const name = truncateChars(message.target.name, 200);
  const at = Date.parse(message.at);
  if (Number.isNaN(at)) return name;
  // DATE and TIME want RFC 3339 without fractions of a second.
  const iso = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `${name} · {{DATE(${iso}, SHORT)}} {{TIME(${iso})}}`;
}

/** Workflows answer failures as Logic Apps errors: `{ error: { code: 'TriggerInputSchemaMismatch', message } }`. */
function checkTeams(json: unknown, status: number): Explanation | undefined {
  if (status >= 200 && status < 300) return undefined;
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof error?.message !== 'string') return undefined;
  return { message: typeof error.code === 'string' ? `${error.code}: ${error.message}` : error.message };
}

import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider, NotificationMessage } from './provider';
import { escapeHtml, truncateChars } from './text';

/** PushPlus's limit on the title. */
const MAX_TITLE = 100;
/** "System error, try again later" (PushPlus's return codes). */
const SERVICE_ERROR = 500;

/**
 * PushPlus's `POST /send`: the text as escaped HTML (lines kept, the page link clickable), to one's own WeChat or
 * to a group (`topic`) one owns.
 */
export const pushplusProvider: ChannelProvider<'pushplus'> = {
  type: 'pushplus',

  send(message, config, context) {
    const body = {
      token: config.token,
      title: truncateChars(message.subject, MAX_TITLE),
      content: htmlContent(message),
      template: 'html',
      ...(config.topic ? { topic: config.topic } : {}),
    };
    return postJson(`${context.apiUrl}/send`, body, context, { secrets: [config.token], check: checkPushPlus });
  },
};

function htmlContent(message: NotificationMessage): string {
  const text = escapeHtml(message.text || message.subject).replace(/\n/g, '<br>');
  if (!message.link) return `<p>${text}</p>`;
  const link = escapeHtml(message.link);
  return `<p>${text}</p><p><a href="${link}">${link}</a></p>`;
}

/**
 * PushPlus answers `{ code: 200, msg: '请求成功', data }` and refusals with HTTP 200 and another code: 903 a wrong
 * token, 900 an account restricted for sending too much. PushPlus asks callers to stop on 900 (more requests extend
 * the restriction, which lasts days), so only its 500 ("try again later") is sent again.
 */
function checkPushPlus(json: unknown, status: number): Explanation | undefined {
  const answer = answerOf<{ code?: unknown; msg?: unknown }>(json);
  if (answer.code === 200 && status >= 200 && status < 300) return undefined;
  if (typeof answer.code === 'number' && answer.code !== 200) {
    const text = typeof answer.msg === 'string' && answer.msg ? answer.msg : 'PushPlus refused the message';
    return { message: `${text} (code ${answer.code})`, ...(answer.code === SERVICE_ERROR ? { retryable: true } : {}) };
  }
  return status >= 200 && status < 300 ? { message: 'PushPlus did not confirm the message' } : undefined;
}

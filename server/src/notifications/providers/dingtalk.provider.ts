import { createHmac } from 'node:crypto';
import { withQuery } from './url-query';
import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { plainText } from './text';

/** "Sending too fast" (more than 20 messages a minute): worth sending again later. */
const RATE_LIMITED = 130101;

/** DingTalk custom robots: a text message, signed in the URL when the robot's security setting is "sign". */
export const dingtalkProvider: ChannelProvider<'dingtalk'> = {
  type: 'dingtalk',

  send(message, config, context) {
    let url = config.webhookUrl;
    if (config.secret) {
      const timestamp = String(context.now());
      url = withQuery(url, { timestamp, sign: dingtalkSign(timestamp, config.secret) });
    }
    const body = { msgtype: 'text', text: { content: plainText(message) } };
    // The signed URL differs from the configured one, which must not show either.
    return postJson(url, body, context, { secrets: [config.webhookUrl, config.secret], check: checkDingTalk });
  },
};

/** base64(HMAC-SHA256(key = secret, data = `${timestamp}\n${secret}`)), timestamp in milliseconds. */
export function dingtalkSign(timestamp: string, secret: string): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${secret}`, 'utf8').digest('base64');
}

/** DingTalk answers `{ errcode: 0, errmsg: 'ok' }`, failures with a non-zero errcode (often with HTTP 200). */
function checkDingTalk(json: unknown): Explanation | undefined {
  const answer = answerOf<{ errcode?: number; errmsg?: string }>(json);
  if (answer.errcode === undefined || answer.errcode === 0) return undefined;
  return {
    message: answer.errmsg ? `${answer.errmsg} (errcode ${answer.errcode})` : `DingTalk refused the message (errcode ${answer.errcode})`,
    ...(answer.errcode === RATE_LIMITED ? { retryable: true } : {}),
  };
}

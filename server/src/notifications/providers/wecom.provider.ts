import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { plainText, truncateUtf8 } from './text';

/** The group robot's limit on a text message. */
const MAX_CONTENT_BYTES = 2048;
/** "API freq out of limit" (more than 20 messages a minute): worth sending again later. */
const RATE_LIMITED = 45009;

/** WeCom (WeChat Work) group robots: a text message of at most 2048 bytes. */
export const wecomProvider: ChannelProvider<'wecom'> = {
  type: 'wecom',

  send(message, config, context) {
    const body = { msgtype: 'text', text: { content: truncateUtf8(plainText(message), MAX_CONTENT_BYTES) } };
    return postJson(config.webhookUrl, body, context, { check: checkWeCom });
  },
};

/** WeCom answers `{ errcode: 0, errmsg: 'ok' }`, failures with a non-zero errcode and HTTP 200. */
function checkWeCom(json: unknown): Explanation | undefined {
  const answer = answerOf<{ errcode?: number; errmsg?: string }>(json);
  if (answer.errcode === undefined || answer.errcode === 0) return undefined;
  return {
    message: answer.errmsg ? `${answer.errmsg} (errcode ${answer.errcode})` : `WeCom refused the message (errcode ${answer.errcode})`,
    ...(answer.errcode === RATE_LIMITED ? { retryable: true } : {}),
  };
}

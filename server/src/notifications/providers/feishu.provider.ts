import { createHmac } from 'node:crypto';
import { answerOf, postJson, type Explanation } from './http';
import type { ChannelProvider } from './provider';
import { plainText } from './text';

/** "Frequency limited" (100 a minute, 5 a second per bot): worth sending again later. */
const RATE_LIMITED = 11232;

/** Feishu (Lark) custom bots: a text message, signed in the body when "signature verification" is on. */
export const feishuProvider: ChannelProvider<'feishu'> = {
  type: 'feishu',

  send(message, config, context) {
    const content = { msg_type: 'text', content: { text: plainText(message) } };
    let body: object = content;
    if (config.secret) {
      const timestamp = String(Math.floor(context.now() / 1000));
      body = { timestamp, sign: feishuSign(timestamp, config.secret), ...content };
    }
    return postJson(config.webhookUrl, body, context, { secrets: [config.secret], check: checkFeishu });
  },
};

/** Feishu's documented algorithm: `${timestamp}\n${secret}` is the HMAC-SHA256 key and the message is empty. */
export function feishuSign(timestamp: string, secret: string): string {
  return createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64');
}

/** Feishu answers `{ code: 0 }` (older bots `{ StatusCode: 0 }`); failures carry a non-zero code and `msg`. */
function checkFeishu(json: unknown): Explanation | undefined {
  const answer = answerOf<{
    code?: number;
    msg?: string;
    StatusCode?: number;
    StatusMessage?: string;
  }>(json);
  const code = answer.code ?? answer.StatusCode;
  if (code === undefined || code === 0) return undefined;
  const text = answer.msg ?? answer.StatusMessage;
  return {
    message: text ? `${text} (code ${code})` : `Feishu refused the message (code ${code})`,
    ...(code === RATE_LIMITED ? { retryable: true } : {}),
  };
}

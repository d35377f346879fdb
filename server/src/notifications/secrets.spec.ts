import { SECRET_MASK } from '@vigil/proto';
import { maskSecrets, restoreSecrets } from './secrets';

const TOKEN = '123456789:AAF-secret-token-value-abcdefghijklmn';

describe('maskSecrets', () => {
  it('masks the bot token and keeps the chat id', () => {
    expect(maskSecrets('telegram', { botToken: TOKEN, chatId: '-1001' })).toEqual({ botToken: SECRET_MASK, chatId: '-1001' });
  });

  it('masks every header value of a webhook but keeps the names and the URL', () => {
    const sut = maskSecrets('webhook', { url: 'https://hooks.example.com/x', headers: { Authorization: 'Bearer abc', 'X-Team': 'ops' } });
    expect(sut).toEqual({ url: 'https://hooks.example.com/x', headers: { Authorization: SECRET_MASK, 'X-Team': SECRET_MASK } });
  });

  it('masks a robot URL and its signing secret, and leaves an absent secret absent', () => {
    expect(maskSecrets('dingtalk', { webhookUrl: 'https://oapi.dingtalk.com/robot/send?access_token=t', secret: 'SECabc' })).toEqual({
      webhookUrl: SECRET_MASK,
      secret: SECRET_MASK,
    });
    expect(maskSecrets('feishu', { webhookUrl: 'https://open.feishu.cn/hook/x' })).toEqual({ webhookUrl: SECRET_MASK });
  });

  it('does not change the stored object', () => {
    const stored = { apiKey: 're_123', from: 'a@b.co', to: 'c@d.co' };
    maskSecrets('resend', stored);
    expect(stored.apiKey).toBe('re_123');
  });
});

describe('restoreSecrets', () => {
  it('puts the stored secret back where the mask was sent', () => {
    expect(restoreSecrets('telegram', { botToken: SECRET_MASK, chatId: '42' }, { botToken: TOKEN, chatId: '-1001' })).toEqual({
      botToken: TOKEN,
      chatId: '42',
    });
  });

  it('keeps a newly typed secret', () => {
    expect(restoreSecrets('resend', { apiKey: 're_new', from: 'a@b.co', to: 'c@d.co' }, { apiKey: 're_old' }).apiKey).toBe('re_new');
  });

  it('restores masked header values one by one and takes new ones as sent', () => {
    const sut = restoreSecrets(
      'webhook',
      { url: 'https://x.example', headers: { Authorization: SECRET_MASK, 'X-New': 'v2' } },
      { url: 'https://x.example', headers: { Authorization: 'Bearer abc', 'X-Old': 'gone' } },
    );
    expect(sut.headers).toEqual({ Authorization: 'Bearer abc', 'X-New': 'v2' });
  });

  it('leaves a mask with nothing stored behind it as undefined, so validation asks for the value', () => {
    expect(restoreSecrets('resend', { apiKey: SECRET_MASK }, {}).apiKey).toBeUndefined();
  });
});

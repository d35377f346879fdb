import { SECRET_MASK as M } from '@vigil/proto';
import { maskSecrets, restoreSecrets } from './secrets';

const TOKEN = '123456789:AAF-secret-token-value-abcdefghijklmn';
const DINGTALK = 'https://oapi.dingtalk.com/robot/send?access_token=t0ken';

describe('maskSecrets', () => {
  it('masks the bot token and keeps the chat id', () => {
    expect(maskSecrets('telegram', { botToken: TOKEN, chatId: '-1001' })).toEqual({ botToken: M, chatId: '-1001' });
  });

  it('masks every header value of a webhook but keeps the names and a URL without credentials', () => {
    const sut = maskSecrets('webhook', { url: 'https://hooks.example.com/x', headers: { Authorization: 'Bearer abc', 'X-Team': 'ops' } });
    expect(sut).toEqual({ url: 'https://hooks.example.com/x', headers: { Authorization: M, 'X-Team': M } });
  });

  it('masks the credentials in a webhook URL', () => {
    expect(maskSecrets('webhook', { url: 'https://user:pass@hooks.example.com/x?team=ops&token=abc' }).url).toBe(
      `https://${M}@hooks.example.com/x?team=ops&token=${M}`,
    );
  });

  it('masks a robot URL and its signing secret, and leaves an absent secret absent', () => {
    expect(maskSecrets('dingtalk', { webhookUrl: DINGTALK, secret: 'SECabc' })).toEqual({ webhookUrl: M, secret: M });
    expect(maskSecrets('feishu', { webhookUrl: 'https://open.feishu.cn/hook/x' })).toEqual({ webhookUrl: M });
  });

  it('does not change the stored object', () => {
    const stored = { apiKey: 're_123', from: 'a@b.co', to: 'c@d.co' };
    maskSecrets('resend', stored);
    expect(stored.apiKey).toBe('re_123');
  });
});

describe('restoreSecrets', () => {
  const webhook = {
    type: 'webhook' as const,
    config: { url: 'https://user:pw@x.example/hook?token=t0k', headers: { Authorization: 'Bearer abc', 'X-Old': 'gone' } },
  };
  const dingtalk = { type: 'dingtalk' as const, config: { webhookUrl: DINGTALK, secret: 'SECsigning' } };

  it('puts the stored bot token back whatever the chat (the token only ever goes to the configured Telegram API)', () => {
    expect(
      restoreSecrets('telegram', { botToken: M, chatId: '42' }, { type: 'telegram', config: { botToken: TOKEN, chatId: '-1001' } }),
    ).toEqual({
      ok: true,
      config: { botToken: TOKEN, chatId: '42' },
    });
  });

  it('keeps the Resend key for new senders and recipients, and takes a newly typed key', () => {
    const stored = { type: 'resend' as const, config: { apiKey: 're_old', from: 'a@b.co', to: 'c@d.co' } };
    expect(restoreSecrets('resend', { apiKey: M, from: 'x@y.co', to: 'z@y.co' }, stored)).toMatchObject({
      ok: true,
      config: { apiKey: 're_old' },
    });
    expect(restoreSecrets('resend', { apiKey: 're_new', from: 'a@b.co', to: 'c@d.co' }, stored)).toMatchObject({
      ok: true,
      config: { apiKey: 're_new' },
    });
  });

  it('restores masked header values and URL credentials for the same URL, and takes new values as sent', () => {
    const sut = restoreSecrets(
      'webhook',
      { url: `https://${M}@x.example/hook?token=${M}`, headers: { Authorization: M, 'X-New': 'v2' } },
      webhook,
    );
    expect(sut).toEqual({
      ok: true,
      config: { url: 'https://user:pw@x.example/hook?token=t0k', headers: { Authorization: 'Bearer abc', 'X-New': 'v2' } },
    });
  });

  it('reads headers sent as JSON text like an object', () => {
    const sut = restoreSecrets(
      'webhook',
      { url: 'https://x.example/hook?token=new', headers: JSON.stringify({ Authorization: M }) },
      webhook,
    );
    expect(sut).toEqual({ ok: true, config: { url: 'https://x.example/hook?token=new', headers: { Authorization: 'Bearer abc' } } });
  });

  it.each([
    ['another host', 'http://attacker.example/hook?token=t0k'],
    ['another path', 'https://x.example/other?token=t0k'],
    ['another scheme', 'http://x.example/hook?token=t0k'],
  ])('refuses masked headers sent to %s, naming them', (_case, url) => {
    expect(restoreSecrets('webhook', { url, headers: { Authorization: M } }, webhook)).toEqual({
      ok: false,
      field: 'headers',
      code: 'notifications.headersReenter',
    });
  });

  it('refuses masked URL credentials on another host', () => {
    expect(restoreSecrets('webhook', { url: `https://${M}@attacker.example/hook` }, webhook)).toEqual({
      ok: false,
      field: 'url',
      code: 'notifications.urlCredentialsReenter',
    });
  });

  it('refuses a masked header with no stored header of that name', () => {
    expect(restoreSecrets('webhook', { url: webhook.config.url, headers: { 'X-Api-Key': M } }, webhook)).toEqual({
      ok: false,
      field: 'headers',
      code: 'notifications.headersReenter',
    });
  });

  it('keeps the DingTalk signing secret with the masked (so unchanged) URL or the same URL typed again', () => {
    expect(restoreSecrets('dingtalk', { webhookUrl: M, secret: M }, dingtalk)).toEqual({ ok: true, config: dingtalk.config });
    expect(restoreSecrets('dingtalk', { webhookUrl: DINGTALK, secret: M }, dingtalk)).toEqual({ ok: true, config: dingtalk.config });
  });

  it.each([
    ['dingtalk', 'http://attacker.example/robot/send?access_token=t0ken'],
    ['dingtalk', 'https://oapi.dingtalk.com/robot/send?access_token=other'],
    ['feishu', 'http://attacker.example/hook'],
  ] as const)('refuses the %s signing secret with another URL (%s)', (type, webhookUrl) => {
    expect(restoreSecrets(type, { webhookUrl, secret: M }, { type, config: { webhookUrl: DINGTALK, secret: 'SECsigning' } })).toEqual({
      ok: false,
      field: 'secret',
      code: 'notifications.secretReenter',
    });
  });

  it.each([
    ['a new channel', 'telegram', { botToken: M, chatId: '1' }, null, 'notifications.botTokenReenter'],
    [
      'another type',
      'webhook',
      { url: 'https://x.example', headers: { Authorization: M } },
      { type: 'slack', config: { webhookUrl: 'https://x.example' } },
      'notifications.headersReenter',
    ],
    [
      'another type',
      'slack',
      { webhookUrl: M },
      { type: 'wecom', config: { webhookUrl: 'https://x.example' } },
      'notifications.webhookUrlReenter',
    ],
    [
      'nothing stored',
      'resend',
      { apiKey: M, from: 'a@b.co', to: 'c@d.co' },
      { type: 'resend', config: {} },
      'notifications.apiKeyReenter',
    ],
  ] as const)('refuses a mask with %s behind it (%s)', (_case, type, config, stored, code) => {
    expect(restoreSecrets(type, { ...config }, stored as never)).toMatchObject({ ok: false, code });
  });
});

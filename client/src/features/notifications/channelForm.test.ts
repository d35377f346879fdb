import { CHANNEL_TYPES, channelSpec, SECRET_MASK } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http';
import { makeChannel } from '../../test/notifications';
import {
  emptyChannelForm,
  formFromChannel,
  serverFieldError,
  toChannelRequest,
  validateChannel,
  withType,
  type ChannelForm,
} from './channelForm';

const TOKEN = '123456789:AAFakeTokenForVigilTests_abcdefghijkl';

function form(type: ChannelForm['type'], fields: Record<string, string>, extra: Partial<ChannelForm> = {}): ChannelForm {
  return { ...emptyChannelForm(type), name: 'Ops', fields, ...extra };
}

describe('channel form rules (spec section 5)', () => {
  it.each([
    [
      'a blank name',
      form('telegram', { botToken: TOKEN, chatId: '1' }, { name: '  ' }),
      { name: 'server.notifications.channelNameRequired' },
    ],
    ['a missing bot token', form('telegram', { chatId: '1' }), { botToken: 'server.notifications.botTokenRequired' }],
    ['a malformed bot token', form('telegram', { botToken: 'abc:def', chatId: '1' }), { botToken: 'server.notifications.botTokenInvalid' }],
    ['a missing chat id', form('telegram', { botToken: TOKEN }), { chatId: 'server.notifications.chatIdRequired' }],
    [
      'a missing API key',
      form('resend', { from: 'a@example.com', to: 'b@example.com' }),
      { apiKey: 'server.notifications.apiKeyRequired' },
    ],
    ['a missing sender', form('resend', { apiKey: 're_1', to: 'b@example.com' }), { from: 'server.notifications.senderRequired' }],
    [
      'a malformed sender',
      form('resend', { apiKey: 're_1', from: 'alerts at example', to: 'b@example.com' }),
      { from: 'server.notifications.senderInvalid' },
    ],
    [
      'a sender whose name is only quotes',
      form('resend', { apiKey: 're_1', from: '"" <a@example.com>', to: 'b@example.com' }),
      { from: 'server.notifications.senderInvalid' },
    ],
    [
      'a missing recipient',
      form('resend', { apiKey: 're_1', from: 'Vigil <a@example.com>' }),
      { to: 'server.notifications.recipientRequired' },
    ],
    [
      'a bad recipient in a list',
      form('resend', { apiKey: 're_1', from: 'a@example.com', to: 'b@example.com, nope' }),
      { to: 'server.notifications.recipientInvalid' },
    ],
    ['a webhook without URL', form('webhook', {}), { url: 'server.notifications.webhookUrlRequired' }],
    ['a webhook to ftp', form('webhook', { url: 'ftp://example.com/x' }), { url: 'server.notifications.webhookUrlInvalid' }],
    [
      'a bad header name',
      form('webhook', { url: 'https://example.com' }, { headers: [{ name: 'Bad Header', value: 'x' }] }),
      { headers: 'server.notifications.headersInvalid' },
    ],
    [
      'a Slack URL that is not one',
      form('slack', { webhookUrl: 'hooks.slack.com/x' }),
      { webhookUrl: 'server.notifications.webhookUrlInvalid' },
    ],
    [
      'a DingTalk secret with spaces',
      form('dingtalk', { webhookUrl: 'https://oapi.dingtalk.com/robot/send?access_token=x', secret: 'SEC a b' }),
      { secret: 'server.notifications.secretInvalid' },
    ],
    ['a WeCom robot without URL', form('wecom', {}), { webhookUrl: 'server.notifications.webhookUrlRequired' }],
  ])('refuses %s', (_case, input, expected) => {
    expect(validateChannel(input)).toEqual(expected);
  });

  it.each([
    ['a Telegram channel', form('telegram', { botToken: TOKEN, chatId: '-100123' })],
    [
      'a named Resend sender and two recipients',
      form('resend', { apiKey: 're_1', from: 'Vigil Alerts <alerts@example.com>', to: 'a@example.com, b@例子.中国' }),
    ],
    [
      'a webhook with a header',
      form('webhook', { url: 'http://127.0.0.1:8080/hook' }, { headers: [{ name: 'Authorization', value: 'Bearer x' }] }),
    ],
    ['a Feishu bot without secret', form('feishu', { webhookUrl: 'https://open.feishu.cn/open-apis/bot/v2/hook/abc' })],
    ['kept (masked) secrets on edit', form('telegram', { botToken: SECRET_MASK, chatId: '1' })],
    ['a kept DingTalk URL and secret', form('dingtalk', { webhookUrl: SECRET_MASK, secret: SECRET_MASK })],
    ['a webhook URL with kept credentials', form('webhook', { url: `https://${SECRET_MASK}@hooks.example.com/x?token=${SECRET_MASK}` })],
  ])('accepts %s', (_case, input) => {
    expect(validateChannel(input)).toEqual({});
  });
});

describe('channel form values', () => {
  it('clears the configuration when the type changes', () => {
    const telegram = form('telegram', { botToken: TOKEN, chatId: '1' });
    expect(withType(telegram, 'resend')).toMatchObject({ type: 'resend', fields: {}, headers: [], name: 'Ops' });
  });

  it('sends the configuration as a JSON string of the type’s fields, trimmed, with webhook headers as an object', () => {
    const request = toChannelRequest(
      form(
        'webhook',
        { url: ' https://example.com/hook ', botToken: 'left over' },
        {
          headers: [
            { name: ' X-Key ', value: 'v' },
            { name: ' ', value: 'dropped' },
          ],
        },
      ),
    );
    expect(request).toMatchObject({ name: 'Ops', type: 'webhook', enabled: true, language: 'zh-CN' });
    expect(JSON.parse(request.config as string)).toEqual({ url: 'https://example.com/hook', headers: { 'X-Key': 'v' } });
  });

  it('reads a saved channel with its secrets still masked, so saving it unchanged keeps them', () => {
    const edited = formFromChannel(makeChannel({ id: 4, name: 'Chat', language: 'en-US' }));
    expect(edited).toMatchObject({
      name: 'Chat',
      type: 'telegram',
      language: 'en-US',
      fields: { botToken: SECRET_MASK, chatId: '-100123' },
    });
    expect(JSON.parse(toChannelRequest(edited).config as string)).toEqual({ botToken: SECRET_MASK, chatId: '-100123' });
  });

  it('reads webhook headers back as rows', () => {
    const channel = makeChannel({
      type: 'webhook',
      config: JSON.stringify({ url: 'https://example.com', headers: { Authorization: SECRET_MASK } }),
    });
    expect(formFromChannel(channel).headers).toEqual([{ name: 'Authorization', value: SECRET_MASK }]);
  });

  it('groups a new channel’s messages by the defaults (10 s wait, 60 s interval) and keeps a saved channel’s choice', () => {
    expect(toChannelRequest(emptyChannelForm())).toMatchObject({ groupWaitSeconds: 10, groupIntervalSeconds: 60 });
    const saved = formFromChannel(makeChannel({ group_wait_seconds: 0, group_interval_seconds: 300 }));
    expect(toChannelRequest(saved)).toMatchObject({ groupWaitSeconds: 0, groupIntervalSeconds: 300 });
    expect(withType(saved, 'resend')).toMatchObject({ groupWaitSeconds: 0, groupIntervalSeconds: 300 });
  });

  it.each([
    [{ groupWaitSeconds: Number.NaN }, 'groupWaitSeconds'],
    [{ groupWaitSeconds: 601 }, 'groupWaitSeconds'],
    [{ groupIntervalSeconds: 3601 }, 'groupIntervalSeconds'],
    [{ groupIntervalSeconds: 1.5 }, 'groupIntervalSeconds'],
  ])('refuses grouping %o on its field', (patch, field) => {
    const errors = validateChannel({ ...form('telegram', { botToken: TOKEN, chatId: '1' }), ...patch });
    expect(errors).toEqual({ [field]: 'alerts.grouping.invalid' });
  });
});

describe('serverFieldError', () => {
  const refusal = (code: 'notifications.headersReenter' | 'notifications.fieldUrl', field?: string) =>
    new ApiError({ status: 400, code, message: 'x', field });

  it.each([
    [refusal('notifications.headersReenter', 'headers'), { headers: 'server.notifications.headersReenter' }],
    [refusal('notifications.fieldUrl', 'serverUrl'), { serverUrl: 'server.notifications.fieldUrl' }],
    [refusal('notifications.fieldUrl'), null],
    [new Error('x'), null],
  ])('puts a refusal naming a field on that field (%#)', (error, expected) => {
    expect(serverFieldError(error)).toEqual(expected);
  });
});

describe('every channel type', () => {
  it.each(CHANNEL_TYPES)('%s starts from its defaults and refuses an empty form only for its required fields', (type) => {
    const errors = validateChannel({ ...emptyChannelForm(type), name: 'x' });
    const required = channelSpec(type)
      .fields.filter((field) => field.required && field.default === undefined)
      .map((field) => field.name);
    expect(Object.keys(errors).sort()).toEqual([...required].sort());
    for (const field of channelSpec(type).fields) if (field.default !== undefined) expect(errors[field.name]).toBeUndefined();
  });
});

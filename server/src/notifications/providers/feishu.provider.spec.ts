import { createHmac } from 'node:crypto';
import { aMessage, contextFor, FakeEndpoint, FIXED_NOW, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { feishuProvider as sut } from './feishu.provider';

const validate = validatorOf('feishu');

const HOOK = '/open-apis/bot/v2/hook/5e3d587e-d78e-4a07-bd07-265f269f86fd';
const SECRET = 'nIMtb7r3N9pkXyXdtAbx6e';

describe('feishuProvider config (CHANNEL_SPECS)', () => {
  it('trims the fields and drops unknown ones', () => {
    expect(validate({ webhookUrl: ` https://open.feishu.cn${HOOK}`, secret: `${SECRET} `, at: 'all' })).toEqual({
      ok: true,
      config: { webhookUrl: `https://open.feishu.cn${HOOK}`, secret: SECRET },
    });
  });

  it.each([
    ['a string that is not JSON', '{', 'notifications.configInvalid'],
    ['no URL', {}, 'notifications.webhookUrlRequired'],
    ['a URL that is not http', { webhookUrl: 'open.feishu.cn/hook' }, 'notifications.webhookUrlInvalid'],
    ['a secret with a line break', { webhookUrl: `https://open.feishu.cn${HOOK}`, secret: 'abc\ndef' }, 'notifications.secretInvalid'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('feishuProvider.send', () => {
  let endpoint: FakeEndpoint;
  let webhookUrl: string;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    webhookUrl = `${endpoint.url}${HOOK}`;
    endpoint.answer(200, { code: 0, data: {}, msg: 'success' });
  });
  afterEach(() => endpoint.close());

  it('posts a text message without a signature when no secret is set', async () => {
    const answer = await sut.send(aMessage(), { webhookUrl }, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(HOOK);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({
      msg_type: 'text',
      content: { text: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused' },
    });
  });

  it('signs the body with the timestamp in seconds when a secret is set', async () => {
    await sut.send(aMessage(), { webhookUrl, secret: SECRET }, contextFor(endpoint));

    const timestamp = String(FIXED_NOW / 1000);
    // Feishu's algorithm: the string to sign is the HMAC key, the message is empty.
    const expectedSign = createHmac('sha256', `${timestamp}\n${SECRET}`).digest('base64');
    expect(endpoint.last.json).toEqual({
      timestamp,
      sign: expectedSign,
      msg_type: 'text',
      content: { text: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused' },
    });
  });

  it('accepts the older StatusCode answer', async () => {
    endpoint.answer(200, { Extra: null, StatusCode: 0, StatusMessage: 'success' });

    await expect(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint))).resolves.toMatchObject({ status: 200 });
  });

  it.each([
    [
      200,
      { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' },
      'sign match fail or timestamp is not within one hour from current time (code 19021)',
      false,
    ],
    [400, { code: 9499, msg: 'Bad Request', data: {} }, 'Bad Request (code 9499)', false],
    [
      200,
      { code: 11232, msg: 'frequency limited psm[lark.oapi.app_platform_runtime]appID[1]' },
      'frequency limited psm[lark.oapi.app_platform_runtime]appID[1] (code 11232)',
      true,
    ],
    [
      200,
      { StatusCode: 19001, StatusMessage: 'param invalid: incoming webhook access token invalid' },
      'param invalid: incoming webhook access token invalid (code 19001)',
      false,
    ],
    [500, 'oops', 'HTTP 500 Internal Server Error', true],
  ])('fails on %i %j', async (status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the hook token or the secret', async () => {
    endpoint.answer(200, { code: 19001, msg: `token 5e3d587e-d78e-4a07-bd07-265f269f86fd of ${webhookUrl} with ${SECRET} invalid` });

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl, secret: SECRET }, contextFor(endpoint)));

    expect(error.message).toBe('token [redacted] of [redacted] with [redacted] invalid (code 19001)');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

import { createHmac } from 'node:crypto';
import { dingtalkProvider as sut } from './dingtalk.provider';
import { aMessage, contextFor, FakeEndpoint, FIXED_NOW, rejectionOf, validatorOf } from './fake-endpoint.testing';

const validate = validatorOf('dingtalk');

const ACCESS_TOKEN = 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6abcd';
const SECRET = 'SECd0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0e1f2a3b4';

describe('dingtalkProvider config (CHANNEL_SPECS)', () => {
  it('trims the fields and drops unknown ones', () => {
    expect(
      validate({
        webhookUrl: ` https://oapi.dingtalk.com/robot/send?access_token=${ACCESS_TOKEN} `,
        secret: ` ${SECRET} `,
        keyword: 'x',
      }),
    ).toEqual({
      ok: true,
      config: { webhookUrl: `https://oapi.dingtalk.com/robot/send?access_token=${ACCESS_TOKEN}`, secret: SECRET },
    });
  });

  it('leaves out a blank secret', () => {
    expect(validate({ webhookUrl: 'https://oapi.dingtalk.com/robot/send?access_token=x', secret: ' ' })).toEqual({
      ok: true,
      config: { webhookUrl: 'https://oapi.dingtalk.com/robot/send?access_token=x' },
    });
  });

  it.each([
    ['an array', [], 'notifications.configInvalid'],
    ['no URL', { secret: SECRET }, 'notifications.webhookUrlRequired'],
    ['a URL that is not http', { webhookUrl: 'oapi.dingtalk.com/robot/send' }, 'notifications.webhookUrlInvalid'],
    ['a secret with a space', { webhookUrl: 'https://oapi.dingtalk.com/robot/send', secret: 'SEC abc' }, 'notifications.secretInvalid'],
    ['a secret outside ASCII', { webhookUrl: 'https://oapi.dingtalk.com/robot/send', secret: 'SEC密钥' }, 'notifications.secretInvalid'],
    [
      'a secret longer than 200 characters',
      { webhookUrl: 'https://oapi.dingtalk.com/robot/send', secret: 'S'.repeat(201) },
      'notifications.secretInvalid',
    ],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('dingtalkProvider.send', () => {
  let endpoint: FakeEndpoint;
  let webhookUrl: string;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    webhookUrl = `${endpoint.url}/robot/send?access_token=${ACCESS_TOKEN}`;
    endpoint.answer(200, { errcode: 0, errmsg: 'ok' });
  });
  afterEach(() => endpoint.close());

  it('posts a text message of the subject line and the text', async () => {
    const answer = await sut.send(aMessage(), { webhookUrl }, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(`/robot/send?access_token=${ACCESS_TOKEN}`);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({
      msgtype: 'text',
      text: { content: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused' },
    });
  });

  it('signs the URL with the millisecond timestamp when a secret is set', async () => {
    await sut.send(aMessage(), { webhookUrl, secret: SECRET }, contextFor(endpoint));

    const expectedSign = createHmac('sha256', SECRET).update(`${FIXED_NOW}\n${SECRET}`).digest('base64');
    const query = new URL(endpoint.last.url, endpoint.url).searchParams;
    expect(query.get('access_token')).toBe(ACCESS_TOKEN);
    expect(query.get('timestamp')).toBe(String(FIXED_NOW));
    expect(query.get('sign')).toBe(expectedSign);
    // The signature is percent-encoded as DingTalk documents (base64 has + / =).
    expect(endpoint.last.url).toContain(`&sign=${encodeURIComponent(expectedSign)}`);
  });

  it('starts the query when the URL has none', async () => {
    await sut.send(aMessage(), { webhookUrl: `${endpoint.url}/robot/send`, secret: SECRET }, contextFor(endpoint));

    expect(endpoint.last.url).toMatch(/^\/robot\/send\?timestamp=\d+&sign=/);
  });

  it.each([
    [
      { errcode: 310000, errmsg: 'sign not match, more: [https://ding-doc.dingtalk.com/doc#/serverapi2/qf2nxq]' },
      'sign not match, more: [https://ding-doc.dingtalk.com/doc#/serverapi2/qf2nxq] (errcode 310000)',
      false,
    ],
    [{ errcode: 300001, errmsg: 'token is not exist' }, 'token is not exist (errcode 300001)', false],
    [
      { errcode: 130101, errmsg: 'send too fast, exceed 20 times per minute' },
      'send too fast, exceed 20 times per minute (errcode 130101)',
      true,
    ],
  ])('fails when DingTalk answers 200 with an error code (%j)', async (body, message, retryable) => {
    endpoint.answer(200, body);

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status: 200, retryable });
  });

  it('fails on a server error', async () => {
    endpoint.answer(500, 'Internal Server Error');

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint)));

    expect(error).toMatchObject({ message: 'HTTP 500 Internal Server Error', status: 500, retryable: true });
  });

  it('never shows the access token or the secret', async () => {
    endpoint.answer(200, { errcode: 400, errmsg: `bad request ${webhookUrl} token ${ACCESS_TOKEN} secret ${SECRET}` });

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl, secret: SECRET }, contextFor(endpoint)));

    expect(error.message).toBe('bad request [redacted] token [redacted] secret [redacted] (errcode 400)');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

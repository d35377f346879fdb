import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { wecomProvider as sut } from './wecom.provider';

const validate = validatorOf('wecom');

const KEY = '693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa';

describe('wecomProvider config (CHANNEL_SPECS)', () => {
  it('trims the URL and drops unknown fields', () => {
    expect(validate(`{"webhookUrl":" https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${KEY} ","mentioned":[]}`)).toEqual({
      ok: true,
      config: { webhookUrl: `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${KEY}` },
    });
  });

  it.each([
    ['true', true, 'notifications.configInvalid'],
    ['no URL', { webhookUrl: '' }, 'notifications.webhookUrlRequired'],
    ['a URL that is not http', { webhookUrl: 'javascript:alert(1)' }, 'notifications.webhookUrlInvalid'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('wecomProvider.send', () => {
  let endpoint: FakeEndpoint;
  let webhookUrl: string;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    webhookUrl = `${endpoint.url}/cgi-bin/webhook/send?key=${KEY}`;
    endpoint.answer(200, { errcode: 0, errmsg: 'ok' });
  });
  afterEach(() => endpoint.close());

  it('posts a text message of the subject line and the text', async () => {
    const answer = await sut.send(aMessage(), { webhookUrl }, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(`/cgi-bin/webhook/send?key=${KEY}`);
    expect(endpoint.last.json).toEqual({
      msgtype: 'text',
      text: { content: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused' },
    });
  });

  it('cuts the content to 2048 bytes without splitting a character', async () => {
    await sut.send(aMessage({ subject: '服务中断', text: '监控告警😀'.repeat(400) }), { webhookUrl }, contextFor(endpoint));

    const content = (endpoint.last.json as { text: { content: string } }).text.content;
    expect(Buffer.byteLength(content, 'utf8')).toBeLessThanOrEqual(2048);
    expect(Buffer.byteLength(content, 'utf8')).toBeGreaterThan(2040);
    expect(content).not.toContain('\ufffd');
    expect(content.startsWith('服务中断\n监控告警😀')).toBe(true);
    expect(content.endsWith('…')).toBe(true);
  });

  it.each([
    [
      { errcode: 93000, errmsg: 'invalid webhook url, hint: [1691] from ip: 1.2.3.4' },
      'invalid webhook url, hint: [1691] from ip: 1.2.3.4 (errcode 93000)',
      false,
    ],
    [{ errcode: 45009, errmsg: 'api freq out of limit' }, 'api freq out of limit (errcode 45009)', true],
  ])('fails when WeCom answers with an error code (%j)', async (body, message, retryable) => {
    endpoint.answer(200, body);

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status: 200, retryable });
  });

  it('fails on a server error without showing the key', async () => {
    endpoint.answer(503, `upstream for key=${KEY} unavailable`);

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint)));

    expect(error).toMatchObject({ message: 'HTTP 503 Service Unavailable', status: 503, retryable: true });
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

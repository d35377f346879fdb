import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { pushplusProvider as sut } from './pushplus.provider';

const validate = validatorOf('pushplus');

const TOKEN = '4f8c2a9e1b7d4e6f9a3c5b8d2e7f1a4c';
const LINK = 'https://vigil.example.com/monitors/7';

describe('pushplusProvider config (CHANNEL_SPECS)', () => {
  it('keeps the group optional', () => {
    expect(validate({ token: TOKEN })).toEqual({ ok: true, config: { token: TOKEN } });
    expect(validate({ token: TOKEN, topic: 'ops' })).toEqual({ ok: true, config: { token: TOKEN, topic: 'ops' } });
  });

  it('rejects a missing token', () => {
    expect(validate({ topic: 'ops' })).toMatchObject({ ok: false });
  });
});

describe('pushplusProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = { token: TOKEN, topic: 'ops' };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, { code: 200, msg: '请求成功', data: 'b1f2c3d4e5f6', count: null });
  });
  afterEach(() => endpoint.close());

  it('posts a down to /send as escaped HTML with the page as a link, to the group', async () => {
    const answer = await sut.send(
      aMessage({ text: 'Shop API is down.\nReason: <timeout> & more', link: LINK }),
      config,
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/send');
    expect(endpoint.last.json).toEqual({
      token: TOKEN,
      title: '[DOWN] Shop API',
      content: `<p>Shop API is down.<br>Reason: &lt;timeout&gt; &amp; more</p><p><a href="${LINK}">${LINK}</a></p>`,
      template: 'html',
      topic: 'ops',
    });
  });

  it('posts a recovery to oneself when no group is set', async () => {
    await sut.send(
      aMessage({ severity: 'recovery', subject: '[UP] Shop API', text: 'Shop API is up again.' }),
      { token: TOKEN },
      contextFor(endpoint),
    );

    expect(endpoint.last.json).toEqual({ token: TOKEN, title: '[UP] Shop API', content: '<p>Shop API is up again.</p>', template: 'html' });
  });

  it('cuts the title to 100 characters', async () => {
    await sut.send(aMessage({ subject: 'S'.repeat(150) }), config, contextFor(endpoint));

    expect((endpoint.last.json as { title: string }).title).toHaveLength(100);
  });

  it.each([
    ['a wrong token', 200, { code: 903, msg: '无效的用户令牌', data: null }, '无效的用户令牌 (code 903)', false],
    [
      'an account restricted for sending too much',
      200,
      { code: 900, msg: '用户账号使用受限', data: null },
      '用户账号使用受限 (code 900)',
      false,
    ],
    ['PushPlus’s own failure', 200, { code: 500, msg: '系统异常，请稍后再试', data: null }, '系统异常，请稍后再试 (code 500)', true],
    ['a 200 that is not PushPlus’s', 200, 'ok', 'PushPlus did not confirm the message', false],
    ['a gateway error', 504, '<html>Gateway Timeout</html>', 'HTTP 504 Gateway Timeout', true],
  ])('fails on %s', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the token', async () => {
    endpoint.answer(200, { code: 903, msg: `token ${TOKEN} 无效` });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('token [redacted] 无效 (code 903)');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

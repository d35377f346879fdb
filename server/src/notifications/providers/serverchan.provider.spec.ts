import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { serverchanProvider as sut, serverchanUrl } from './serverchan.provider';

const validate = validatorOf('serverchan');

const SEND_KEY = 'SCT214579TxQmRz8bJkWcLp3vYdNh';
const SC3_KEY = 'sctp3289tWj7QbXk2fPzLrN5';
const LINK = 'https://vigil.example.com/monitors/7';

describe('serverchanProvider config (CHANNEL_SPECS)', () => {
  it.each([
    ['a Turbo key', SEND_KEY],
    ['a Server酱³ key', SC3_KEY],
  ])('accepts %s', (_case, sendKey) => {
    expect(validate({ sendKey })).toEqual({ ok: true, config: { sendKey } });
  });

  it('rejects a missing key', () => {
    expect(validate({})).toMatchObject({ ok: false });
  });
});

describe('serverchanUrl', () => {
  it.each([
    ['a Turbo key goes to the API', SEND_KEY, 'https://sctapi.ftqq.com', `https://sctapi.ftqq.com/${SEND_KEY}.send`],
    ['a Server酱³ key goes to its user’s host', SC3_KEY, 'https://sctapi.ftqq.com', `https://3289.push.ft07.com/send/${SC3_KEY}.send`],
    ['every key goes to a configured address', SC3_KEY, 'http://127.0.0.1:9000/sc', `http://127.0.0.1:9000/sc/${SC3_KEY}.send`],
  ])('%s', (_case, key, apiUrl, url) => {
    expect(serverchanUrl(key, apiUrl)).toBe(url);
  });
});

describe('serverchanProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = { sendKey: SEND_KEY };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, { code: 0, message: '', data: { pushid: '1234567', readkey: 'SCTabc', error: 'SUCCESS', errno: 0 } });
  });
  afterEach(() => endpoint.close());

  it('posts the subject and a Markdown body ending with the page to /<SendKey>.send', async () => {
    const answer = await sut.send(aMessage({ link: LINK }), config, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(`/${SEND_KEY}.send`);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({
      title: '[DOWN] Shop API',
      desp: `Shop API is down.\n\nReason: Connection refused\n\n${LINK}`,
    });
  });

  it('posts a recovery the same way', async () => {
    await sut.send(
      aMessage({ severity: 'recovery', subject: '[UP] Shop API', text: 'Shop API is up again.' }),
      config,
      contextFor(endpoint),
    );

    expect(endpoint.last.json).toEqual({ title: '[UP] Shop API', desp: 'Shop API is up again.' });
  });

  it('cuts the title to ServerChan’s 32 characters', async () => {
    await sut.send(
      aMessage({ subject: '[DOWN] A monitor with a name far longer than thirty-two characters' }),
      config,
      contextFor(endpoint),
    );

    const title = (endpoint.last.json as { title: string }).title;
    expect(title).toHaveLength(32);
    expect(title.endsWith('…')).toBe(true);
  });

  it.each([
    [
      'a wrong key, answered with HTTP 200',
      200,
      { code: 40001, message: 'bad pushtoken', data: null },
      'bad pushtoken (code 40001)',
      false,
    ],
    ['a code without a message', 200, { code: 20001 }, 'ServerChan refused the message (code 20001)', false],
    ['a 200 that is not ServerChan’s', 200, 'hello', 'ServerChan did not confirm the message', false],
    ['a rate limit', 429, 'Too Many Requests', 'HTTP 429 Too Many Requests', true],
    ['a server error', 502, '<html>Bad Gateway</html>', 'HTTP 502 Bad Gateway', true],
  ])('fails on %s', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the SendKey', async () => {
    endpoint.answer(200, { code: 40001, message: `bad pushtoken ${SEND_KEY}` });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('bad pushtoken [redacted] (code 40001)');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

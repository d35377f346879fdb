import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { ntfyProvider as sut } from './ntfy.provider';

const validate = validatorOf('ntfy');

const TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';
const LINK = 'https://vigil.example.com/monitors/7';
const recovery = aMessage({
  event: 'monitor.recovery',
  severity: 'recovery',
  subject: '[UP] Shop API',
  text: 'Shop API is up again.',
  link: LINK,
});

describe('ntfyProvider config (CHANNEL_SPECS)', () => {
  it('fills the public server and priority 4, and keeps the token optional', () => {
    expect(validate({ topic: 'vigil-alerts' })).toEqual({
      ok: true,
      config: { serverUrl: 'https://ntfy.sh', topic: 'vigil-alerts', priority: 4 },
    });
  });

  it.each([
    ['no topic', {}],
    ['a topic with a slash', { topic: 'a/b' }],
    ['a priority above 5', { topic: 'a', priority: 6 }],
  ])('rejects %s', (_case, config) => {
    expect(validate(config)).toMatchObject({ ok: false });
  });
});

describe('ntfyProvider.send', () => {
  let endpoint: FakeEndpoint;
  let config: { serverUrl: string; topic: string; priority: number; token?: string };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, { id: 'hwQ2YpKdmg', time: 1714564800, event: 'message', topic: 'vigil-alerts' });
    config = { serverUrl: endpoint.url, topic: 'vigil-alerts', priority: 5, token: TOKEN };
  });
  afterEach(() => endpoint.close());

  it('publishes a down as JSON to the server root with the configured priority, a siren tag and the page on tap', async () => {
    const answer = await sut.send(aMessage({ link: LINK }), config, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/');
    expect(endpoint.last.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({
      topic: 'vigil-alerts',
      title: '[DOWN] Shop API',
      message: 'Shop API is down.\nReason: Connection refused',
      priority: 5,
      tags: ['rotating_light'],
      click: LINK,
    });
  });

  it('publishes a recovery at the default priority with a check mark', async () => {
    await sut.send(recovery, config, contextFor(endpoint));

    expect(endpoint.last.json).toMatchObject({
      title: '[UP] Shop API',
      message: 'Shop API is up again.',
      priority: 3,
      tags: ['white_check_mark'],
    });
  });

  it('never raises a recovery above the configured priority', async () => {
    await sut.send(recovery, { ...config, priority: 2 }, contextFor(endpoint));

    expect(endpoint.last.json).toMatchObject({ priority: 2 });
  });

  it('sends no Authorization header and no click without a token and a link', async () => {
    await sut.send(aMessage(), { ...config, token: undefined }, contextFor(endpoint));

    expect(endpoint.last.headers.authorization).toBeUndefined();
    expect(endpoint.last.json).not.toHaveProperty('click');
  });

  it('publishes under the path of a server behind a prefix', async () => {
    await sut.send(aMessage(), { ...config, serverUrl: `${endpoint.url}/ntfy/` }, contextFor(endpoint));

    expect(endpoint.last.url).toBe('/ntfy/');
  });

  it('cuts a message to ntfy’s 4096 bytes', async () => {
    await sut.send(aMessage({ text: 'é'.repeat(3_000) }), config, contextFor(endpoint));

    const message = (endpoint.last.json as { message: string }).message;
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(4096);
    expect(message.endsWith('…')).toBe(true);
  });

  it.each([
    [
      'a topic the token may not write',
      403,
      { code: 40301, http: 403, error: 'forbidden', link: 'https://ntfy.sh/docs/publish/#authentication' },
      'HTTP 403 Forbidden: forbidden (code 40301)',
      false,
    ],
    [
      'a rate limit',
      429,
      { code: 42901, http: 429, error: 'limit reached: too many requests, please be nice' },
      'HTTP 429 Too Many Requests: limit reached: too many requests, please be nice (code 42901)',
      true,
    ],
    ['a proxy error', 502, '<html>Bad Gateway</html>', 'HTTP 502 Bad Gateway', true],
  ])('fails on %s with ntfy’s error', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the token', async () => {
    endpoint.answer(401, { code: 40101, http: 401, error: `unauthorized: token ${TOKEN}` });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('HTTP 401 Unauthorized: unauthorized: token [redacted] (code 40101)');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

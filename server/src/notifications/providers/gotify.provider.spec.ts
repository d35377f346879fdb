import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { gotifyProvider as sut } from './gotify.provider';

const validate = validatorOf('gotify');

const APP_TOKEN = 'AvKcy9o-yvVhyKd';
const LINK = 'https://vigil.example.com/monitors/7';

describe('gotifyProvider config (CHANNEL_SPECS)', () => {
  it('fills priority 8', () => {
    expect(validate({ serverUrl: 'https://push.example.com', appToken: APP_TOKEN })).toEqual({
      ok: true,
      config: { serverUrl: 'https://push.example.com', appToken: APP_TOKEN, priority: 8 },
    });
  });

  it.each([
    ['no server', { appToken: APP_TOKEN }],
    ['no token', { serverUrl: 'https://push.example.com' }],
    ['a priority above 10', { serverUrl: 'https://push.example.com', appToken: APP_TOKEN, priority: 11 }],
  ])('rejects %s', (_case, config) => {
    expect(validate(config)).toMatchObject({ ok: false });
  });
});

describe('gotifyProvider.send', () => {
  let endpoint: FakeEndpoint;
  let config: { serverUrl: string; appToken: string; priority: number };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, { id: 25, appid: 5, message: '…', title: '…', priority: 8, date: '2024-05-01T12:00:00Z' });
    config = { serverUrl: endpoint.url, appToken: APP_TOKEN, priority: 8 };
  });
  afterEach(() => endpoint.close());

  it('posts a down to /message with the token in X-Gotify-Key, as plain text that opens the page on tap', async () => {
    const answer = await sut.send(aMessage({ link: LINK }), config, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/message');
    expect(endpoint.last.headers['x-gotify-key']).toBe(APP_TOKEN);
    expect(endpoint.last.json).toEqual({
      title: '[DOWN] Shop API',
      message: 'Shop API is down.\nReason: Connection refused',
      priority: 8,
      extras: { 'client::display': { contentType: 'text/plain' }, 'client::notification': { click: { url: LINK } } },
    });
  });

  it('posts a recovery at a priority that sounds but does not pop up', async () => {
    await sut.send(
      aMessage({ severity: 'recovery', subject: '[UP] Shop API', text: 'Shop API is up again.' }),
      config,
      contextFor(endpoint),
    );

    expect(endpoint.last.json).toMatchObject({ title: '[UP] Shop API', priority: 5 });
    expect(endpoint.last.json).not.toHaveProperty(['extras', 'client::notification']);
  });

  it('posts under the path of a server behind a prefix', async () => {
    await sut.send(aMessage(), { ...config, serverUrl: `${endpoint.url}/gotify/` }, contextFor(endpoint));

    expect(endpoint.last.url).toBe('/gotify/message');
  });

  it.each([
    [
      'a wrong token',
      401,
      {
        error: 'Unauthorized',
        errorCode: 401,
        errorDescription: 'you need to provide a valid access token or user credentials to access this api',
      },
      'HTTP 401 Unauthorized: you need to provide a valid access token or user credentials to access this api',
      false,
    ],
    ['an error without a description', 400, { error: 'Bad Request', errorCode: 400 }, 'HTTP 400 Bad Request: Bad Request', false],
    ['a rate-limiting proxy', 429, 'slow down', 'HTTP 429 Too Many Requests', true],
    [
      'a server error',
      500,
      { error: 'Internal Server Error', errorCode: 500 },
      'HTTP 500 Internal Server Error: Internal Server Error',
      true,
    ],
  ])('fails on %s with Gotify’s error', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the token', async () => {
    endpoint.answer(401, { error: 'Unauthorized', errorCode: 401, errorDescription: `token ${APP_TOKEN} is unknown` });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('HTTP 401 Unauthorized: token [redacted] is unknown');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

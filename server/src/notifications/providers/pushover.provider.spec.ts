import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { pushoverProvider as sut } from './pushover.provider';

const validate = validatorOf('pushover');

const USER_KEY = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const APP_TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const LINK = 'https://vigil.example.com/monitors/7';

describe('pushoverProvider config (CHANNEL_SPECS)', () => {
  it('fills high priority', () => {
    expect(validate({ userKey: USER_KEY, appToken: APP_TOKEN })).toEqual({
      ok: true,
      config: { userKey: USER_KEY, appToken: APP_TOKEN, priority: '1' },
    });
  });

  it.each([
    ['a short user key', { userKey: 'abc', appToken: APP_TOKEN }],
    ['no app token', { userKey: USER_KEY }],
    ['emergency priority (it needs retry and expire)', { userKey: USER_KEY, appToken: APP_TOKEN, priority: '2' }],
  ])('rejects %s', (_case, config) => {
    expect(validate(config)).toMatchObject({ ok: false });
  });
});

describe('pushoverProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = { userKey: USER_KEY, appToken: APP_TOKEN, priority: '1' as const, device: 'iphone', sound: 'siren' };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, { status: 1, request: '647d2300-702c-4b38-8b2f-d56326ae460b' });
  });
  afterEach(() => endpoint.close());

  it('posts a down to /1/messages.json with the keys, the event’s time and the page as its URL', async () => {
    const answer = await sut.send(aMessage({ link: LINK }), config, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/1/messages.json');
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({
      token: APP_TOKEN,
      user: USER_KEY,
      title: '[DOWN] Shop API',
      message: 'Shop API is down.\nReason: Connection refused',
      priority: 1,
      timestamp: 1714564798,
      device: 'iphone',
      sound: 'siren',
      url: LINK,
      url_title: 'Shop API',
    });
  });

  it.each([
    ['high', '1', 0],
    ['normal', '0', 0],
    ['lowest', '-2', -2],
  ])('posts a recovery at normal priority at most (configured %s)', async (_case, priority, expected) => {
    await sut.send(
      aMessage({ severity: 'recovery', subject: '[UP] Shop API' }),
      { ...config, priority: priority as '1' },
      contextFor(endpoint),
    );

    expect(endpoint.last.json).toMatchObject({ title: '[UP] Shop API', priority: expected });
  });

  it('leaves out the optional fields that are not set', async () => {
    await sut.send(aMessage(), { userKey: USER_KEY, appToken: APP_TOKEN, priority: '0' }, contextFor(endpoint));

    expect(Object.keys(endpoint.last.json as object).sort()).toEqual(['message', 'priority', 'timestamp', 'title', 'token', 'user']);
  });

  it('cuts the message to 1024 and the title to 250 characters, and drops a link longer than 512', async () => {
    const link = `https://vigil.example.com/${'a'.repeat(600)}`;
    await sut.send(aMessage({ subject: 'S'.repeat(300), text: 'x'.repeat(2_000), link }), config, contextFor(endpoint));

    const body = endpoint.last.json as { title: string; message: string; url?: string };
    expect(body.title).toHaveLength(250);
    expect(body.message).toHaveLength(1024);
    expect(body.message.endsWith('…')).toBe(true);
    expect(body.url).toBeUndefined();
  });

  it.each([
    [
      'an invalid user key',
      400,
      { user: 'invalid', errors: ['user identifier is not a valid user, group, or subscribed user key'], status: 0, request: 'r1' },
      'user identifier is not a valid user, group, or subscribed user key',
      false,
    ],
    ['status 0 with HTTP 200', 200, { status: 0, errors: ['message cannot be blank'], request: 'r2' }, 'message cannot be blank', false],
    [
      'the monthly limit',
      429,
      { status: 0, errors: ['application has exceeded its monthly message limit'], request: 'r3' },
      'application has exceeded its monthly message limit',
      true,
    ],
    ['a server error', 500, 'Internal Server Error', 'HTTP 500 Internal Server Error', true],
    ['a 200 that is not Pushover’s', 200, 'ok', 'Pushover did not confirm the message', false],
  ])('fails on %s with Pushover’s errors', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the user key or the app token', async () => {
    endpoint.answer(400, { status: 0, errors: [`token ${APP_TOKEN} is invalid`, `user ${USER_KEY} is invalid`] });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('token [redacted] is invalid; user [redacted] is invalid');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

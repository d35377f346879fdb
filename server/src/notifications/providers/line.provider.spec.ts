import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { lineProvider as sut } from './line.provider';

const validate = validatorOf('line');

const TOKEN = 'jL0Yb1+YX7HiTgFSrC4E9Y9p3LQ9E5qjQ0y3oZ8HpbsWcIYTc2b6d0mEeQ2Yb1+Y=';
const USER = 'U4af4980629a1b2c3d4e5f60718293a4b';
const DELIVERY = '5f0c6c1e-8f0a-4d43-9a0e-0d7c1c1b2a11';

describe('lineProvider config (CHANNEL_SPECS)', () => {
  it.each([
    ['a user id', USER],
    ['a group id', 'C4af4980629a1b2c3d4e5f60718293a4b'],
    ['a room id', 'R4af4980629a1b2c3d4e5f60718293a4b'],
  ])('accepts %s', (_case, to) => {
    expect(validate({ channelAccessToken: TOKEN, to })).toEqual({ ok: true, config: { channelAccessToken: TOKEN, to } });
  });

  it('rejects a LINE id that is not a user, group or room id', () => {
    expect(validate({ channelAccessToken: TOKEN, to: '@vigil' })).toEqual({ ok: false, code: 'notifications.fieldInvalid' });
  });
});

describe('lineProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = { channelAccessToken: TOKEN, to: USER };
  const context = () => contextFor(endpoint, { deliveryId: DELIVERY });

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('pushes one text message with the token as Bearer and the delivery id as retry key, the link last', async () => {
    endpoint.answer(200, { sentMessages: [{ id: '461230966842064897', quoteToken: 'IStG5h1Tz7b…' }] });

    const answer = await sut.send(aMessage({ link: 'https://vigil.example/monitors/7' }), config, context());

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/v2/bot/message/push');
    expect(endpoint.last.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(endpoint.last.headers['x-line-retry-key']).toBe(DELIVERY);
    expect(endpoint.last.json).toEqual({
      to: USER,
      messages: [
        { type: 'text', text: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused\n\nhttps://vigil.example/monitors/7' },
      ],
    });
  });

  it('sends a recovery the same way', async () => {
    endpoint.answer(200, {});

    await sut.send(aMessage({ severity: 'recovery', subject: '[UP] Shop API', text: 'Shop API is up.' }), config, context());

    expect(endpoint.last.json).toEqual({ to: USER, messages: [{ type: 'text', text: '[UP] Shop API\nShop API is up.' }] });
  });

  it('cuts the text to LINE’s 5,000 characters, keeping the link', async () => {
    endpoint.answer(200, {});

    await sut.send(aMessage({ text: 'x'.repeat(9000), link: 'https://vigil.example/monitors/7' }), config, context());

    const { text } = (endpoint.last.json as { messages: Array<{ text: string }> }).messages[0];
    expect(text).toHaveLength(5000);
    expect(text.endsWith('…\n\nhttps://vigil.example/monitors/7')).toBe(true);
  });

  it('counts a retry LINE already accepted as sent', async () => {
    endpoint.answer(
      409,
      { message: 'The retry key is already accepted', sentMessages: [{ id: '1' }] },
      { 'x-line-accepted-request-id': 'abc' },
    );

    const answer = await sut.send(aMessage(), config, context());

    expect(answer).toEqual({ status: 409, detail: 'Already sent' });
  });

  it.each([
    [
      'a bad recipient',
      400,
      { message: 'The request body has 1 error(s)', details: [{ message: 'Must be a valid user ID', property: 'to' }] },
      'The request body has 1 error(s): to Must be a valid user ID',
      false,
    ],
    [
      'a revoked token',
      401,
      { message: 'Authentication failed. Confirm that the access token in the authorization header is valid.' },
      'Authentication failed. Confirm that the access token in the authorization header is valid.',
      false,
    ],
    [
      'the rate limit',
      429,
      { message: 'The API rate limit has been exceeded. Try again later.' },
      'The API rate limit has been exceeded. Try again later.',
      true,
    ],
    ['a used-up monthly quota', 429, { message: 'You have reached your monthly limit.' }, 'You have reached your monthly limit.', false],
    ['an outage', 500, { message: 'An error occurred in the internal server.' }, 'An error occurred in the internal server.', true],
  ])('fails on %s with LINE’s message', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, context()));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the channel access token', async () => {
    endpoint.answer(401, { message: `Invalid token ${TOKEN}` });

    const error = await rejectionOf(sut.send(aMessage(), config, context()));

    expect(error.message).toBe('Invalid token [redacted]');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

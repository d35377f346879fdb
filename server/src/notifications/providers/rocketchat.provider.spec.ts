import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { rocketchatProvider as sut } from './rocketchat.provider';

const validate = validatorOf('rocketchat');

const TOKEN = 'dSeHtXKjYqT4LcQ9z8AWmbnRRu5vDxF7sZyJcbKk3gNpM2Wa';
const HOOK_PATH = `/hooks/6470d8a3b4c5e2001f9a7b3c/${TOKEN}`;

describe('rocketchatProvider config (CHANNEL_SPECS)', () => {
  it('keeps the URL and the optional channel and username', () => {
    expect(validate({ webhookUrl: `https://chat.example${HOOK_PATH}`, channel: '#ops', username: 'Vigil' })).toEqual({
      ok: true,
      config: { webhookUrl: `https://chat.example${HOOK_PATH}`, channel: '#ops', username: 'Vigil' },
    });
  });
});

describe('rocketchatProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = () => ({ webhookUrl: `${endpoint.url}${HOOK_PATH}` });

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the subject as text and an attachment coloured by severity linking to the target', async () => {
    endpoint.answer(200, { success: true });

    const answer = await sut.send(
      aMessage({ link: 'https://vigil.example/monitors/7' }),
      { ...config(), channel: '#ops', username: 'Vigil' },
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(HOOK_PATH);
    expect(endpoint.last.json).toEqual({
      text: '[DOWN] Shop API',
      channel: '#ops',
      alias: 'Vigil',
      attachments: [
        {
          fallback: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused',
          color: '#e01e5a',
          title: 'Shop API',
          title_link: 'https://vigil.example/monitors/7',
          text: 'Shop API is down.\nReason: Connection refused',
          ts: '2024-05-01T11:59:58.000Z',
        },
      ],
    });
  });

  it('colours a recovery green and leaves out what the config and the message do not have', async () => {
    endpoint.answer(200, { success: true });

    await sut.send(aMessage({ severity: 'recovery' }), config(), contextFor(endpoint));

    const body = endpoint.last.json as { attachments: Array<{ color: string }> };
    expect(body).not.toHaveProperty('channel');
    expect(body).not.toHaveProperty('alias');
    expect(body.attachments[0].color).toBe('#2eb886');
    expect(body.attachments[0]).not.toHaveProperty('title_link');
  });

  it('cuts a long text to Rocket.Chat’s 5,000 characters', async () => {
    endpoint.answer(200, { success: true });

    await sut.send(aMessage({ text: 'x'.repeat(20_000) }), config(), contextFor(endpoint));

    const [attachment] = (endpoint.last.json as { attachments: Array<{ text: string }> }).attachments;
    expect(attachment.text).toHaveLength(5000);
  });

  it.each([
    [
      'a wrong token',
      400,
      { success: false, error: 'Invalid integration id or token provided.' },
      'Invalid integration id or token provided.',
      false,
    ],
    ['a refusal answered with 200', 200, { success: false, error: 'error-invalid-channel' }, 'error-invalid-channel', false],
    ['an outage', 503, 'Service Unavailable', 'HTTP 503 Service Unavailable', true],
  ])('fails on %s with Rocket.Chat’s error', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the webhook URL or its token', async () => {
    endpoint.answer(400, { success: false, error: `Invalid token ${TOKEN} for ${config().webhookUrl}` });

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error.message).toBe('Invalid token [redacted] for [redacted]');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

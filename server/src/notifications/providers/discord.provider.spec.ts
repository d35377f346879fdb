import { discordProvider as sut } from './discord.provider';
import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';

const validate = validatorOf('discord');

const HOOK_PATH = '/api/webhooks/1234567890123456789/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWx';
const TOKEN = HOOK_PATH.split('/').at(-1)!;

describe('discordProvider config (CHANNEL_SPECS)', () => {
  it('keeps the URL and an optional username', () => {
    expect(validate({ webhookUrl: ` https://discord.com${HOOK_PATH} `, username: ' Vigil ' })).toEqual({
      ok: true,
      config: { webhookUrl: `https://discord.com${HOOK_PATH}`, username: 'Vigil' },
    });
  });

  it.each([
    ['no URL', {}, 'notifications.webhookUrlRequired'],
    [
      'a username over 80 characters',
      { webhookUrl: `https://discord.com${HOOK_PATH}`, username: 'x'.repeat(81) },
      'notifications.fieldText',
    ],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('discordProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = () => ({ webhookUrl: `${endpoint.url}${HOOK_PATH}` });

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it.each([
    ['a down', 'monitor.down', 'alert', 0xe01e5a],
    ['a recovery', 'monitor.recovery', 'recovery', 0x2eb886],
    ['a test', 'test', 'info', 0x439fe0],
  ] as const)('posts %s as an embed coloured by severity, linking to the target', async (_case, event, severity, color) => {
    endpoint.answer(204, '');

    const answer = await sut.send(
      aMessage({ event, severity, link: 'https://vigil.example/monitors/7' }),
      { ...config(), username: 'Vigil' },
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 204, detail: 'No Content' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(HOOK_PATH);
    expect(endpoint.last.json).toEqual({
      username: 'Vigil',
      embeds: [
        {
          title: '[DOWN] Shop API',
          description: 'Shop API is down.\nReason: Connection refused',
          url: 'https://vigil.example/monitors/7',
          color,
          timestamp: '2024-05-01T11:59:58.000Z',
          footer: { text: 'Shop API' },
        },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  it('leaves out the link and the username when there are none', async () => {
    endpoint.answer(204, '');

    await sut.send(aMessage(), config(), contextFor(endpoint));

    const body = endpoint.last.json as { username?: string; embeds: Array<{ url?: string }> };
    expect(body.username).toBeUndefined();
    expect(body.embeds[0].url).toBeUndefined();
  });

  it('cuts the title and the description to Discord’s limits', async () => {
    endpoint.answer(204, '');

    await sut.send(aMessage({ subject: 'S'.repeat(300), text: '😀'.repeat(3000) }), config(), contextFor(endpoint));

    const [embed] = (endpoint.last.json as { embeds: Array<{ title: string; description: string }> }).embeds;
    expect(embed.title).toHaveLength(256);
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    expect(embed.description.endsWith('…')).toBe(true);
  });

  it.each([
    ['an unknown webhook', 404, { message: 'Unknown Webhook', code: 10015 }, 'Unknown Webhook (code 10015)', false],
    ['a refused body', 400, { message: 'Invalid Form Body', code: 50035, errors: {} }, 'Invalid Form Body (code 50035)', false],
    ['an outage', 502, '<html>Bad Gateway</html>', 'HTTP 502 Bad Gateway', true],
  ])('fails on %s with Discord’s message', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('fails on 429 with the wait Discord asks for', async () => {
    endpoint.answer(429, { message: 'You are being rate limited.', retry_after: 1.5, global: false });

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error).toMatchObject({ message: 'You are being rate limited.', status: 429, retryable: true, retryAfterMs: 1500 });
  });

  it('never shows the webhook URL or its token', async () => {
    endpoint.answer(401, { message: `Invalid Webhook Token ${endpoint.url}${HOOK_PATH} ${TOKEN}`, code: 50027 });

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain(HOOK_PATH);
    expect(error.message).toMatch(/^Invalid Webhook Token \[redacted\]/);
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

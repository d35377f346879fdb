import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { mattermostProvider as sut } from './mattermost.provider';

const validate = validatorOf('mattermost');

const HOOK_PATH = '/hooks/xi9gq3yfd3gd8b6u7wd1znfdgh';
const KEY = HOOK_PATH.slice('/hooks/'.length);

describe('mattermostProvider config (CHANNEL_SPECS)', () => {
  it('keeps the URL and the optional channel and username', () => {
    expect(validate({ webhookUrl: `https://chat.example${HOOK_PATH}`, channel: ' town-square ', username: 'vigil' })).toEqual({
      ok: true,
      config: { webhookUrl: `https://chat.example${HOOK_PATH}`, channel: 'town-square', username: 'vigil' },
    });
  });
});

describe('mattermostProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = () => ({ webhookUrl: `${endpoint.url}${HOOK_PATH}` });

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the subject as text and an attachment coloured by severity linking to the target', async () => {
    endpoint.answer(200, 'ok');

    const answer = await sut.send(
      aMessage({ link: 'https://vigil.example/monitors/7' }),
      { ...config(), channel: 'ops', username: 'vigil' },
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(HOOK_PATH);
    expect(endpoint.last.json).toEqual({
      text: '[DOWN] Shop API',
      channel: 'ops',
      username: 'vigil',
      attachments: [
        {
          fallback: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused',
          color: '#e01e5a',
          title: 'Shop API',
          title_link: 'https://vigil.example/monitors/7',
          text: 'Shop API is down.\nReason: Connection refused',
          footer: 'Vigil',
          ts: 1714564798,
        },
      ],
    });
  });

  it('colours a recovery green and leaves out what the config and the message do not have', async () => {
    endpoint.answer(200, 'ok');

    await sut.send(aMessage({ severity: 'recovery', subject: '[UP] Shop API' }), config(), contextFor(endpoint));

    const body = endpoint.last.json as {
      channel?: string;
      username?: string;
      text: string;
      attachments: Array<{ color: string; title_link?: string }>;
    };
    expect(body).not.toHaveProperty('channel');
    expect(body).not.toHaveProperty('username');
    expect(body.text).toBe('[UP] Shop API');
    expect(body.attachments[0].color).toBe('#2eb886');
    expect(body.attachments[0]).not.toHaveProperty('title_link');
  });

  it('cuts a long text', async () => {
    endpoint.answer(200, 'ok');

    await sut.send(aMessage({ text: 'x'.repeat(20_000) }), config(), contextFor(endpoint));

    const [attachment] = (endpoint.last.json as { attachments: Array<{ text: string }> }).attachments;
    expect(attachment.text).toHaveLength(8000);
    expect(attachment.text.endsWith('…')).toBe(true);
  });

  it.each([
    [
      'a removed webhook',
      400,
      { id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.', status_code: 400 },
      'Invalid webhook.',
      false,
    ],
    [
      'a channel the webhook may not post to',
      403,
      {
        id: 'web.incoming_webhook.channel_locked.app_error',
        message: 'This webhook is not permitted to post to the requested channel.',
        status_code: 403,
      },
      'This webhook is not permitted to post to the requested channel.',
      false,
    ],
    ['an outage', 502, '<html>Bad Gateway</html>', 'HTTP 502 Bad Gateway', true],
  ])('fails on %s with Mattermost’s message', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the webhook URL or its key', async () => {
    endpoint.answer(400, { message: `Invalid webhook ${KEY} at ${config().webhookUrl}` });

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error.message).toBe('Invalid webhook [redacted] at [redacted]');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

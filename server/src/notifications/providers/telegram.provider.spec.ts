import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { DeliveryError } from './provider';
import { telegramProvider as sut } from './telegram.provider';

const validate = validatorOf('telegram');

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

describe('telegramProvider config (CHANNEL_SPECS)', () => {
  it('trims the fields and drops unknown ones', () => {
    expect(validate({ botToken: ` ${BOT_TOKEN} `, chatId: ' -1001234567890 ', extra: 1 })).toEqual({
      ok: true,
      config: { botToken: BOT_TOKEN, chatId: '-1001234567890' },
    });
  });

  it.each([
    ['a numeric chat id', { botToken: BOT_TOKEN, chatId: '-100123' }, '-100123'],
    ['a chat id given as a number', { botToken: BOT_TOKEN, chatId: 42 }, '42'],
    ['a channel name', { botToken: BOT_TOKEN, chatId: '@vigil_alerts' }, '@vigil_alerts'],
  ])('accepts %s', (_case, config, chatId) => {
    expect(validate(config)).toEqual({ ok: true, config: { botToken: BOT_TOKEN, chatId } });
  });

  it('accepts the config as a JSON string', () => {
    expect(validate(JSON.stringify({ botToken: BOT_TOKEN, chatId: '1' }))).toEqual({
      ok: true,
      config: { botToken: BOT_TOKEN, chatId: '1' },
    });
  });

  it.each([
    ['null', null, 'notifications.configInvalid'],
    ['an array', [BOT_TOKEN], 'notifications.configInvalid'],
    ['text that is not JSON', 'botToken=1', 'notifications.configInvalid'],
    ['a JSON string of a number', '42', 'notifications.configInvalid'],
    ['no token', { chatId: '1' }, 'notifications.botTokenRequired'],
    ['a blank token', { botToken: '   ', chatId: '1' }, 'notifications.botTokenRequired'],
    ['a token without the bot id', { botToken: 'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', chatId: '1' }, 'notifications.botTokenInvalid'],
    ['a token with a short secret', { botToken: '123456789:short', chatId: '1' }, 'notifications.botTokenInvalid'],
    [
      'a token with a space inside',
      { botToken: '123456789:AAHdqTcvCH1vGWJx SeofSAs0K5PALDsaw', chatId: '1' },
      'notifications.botTokenInvalid',
    ],
    ['no chat id', { botToken: BOT_TOKEN }, 'notifications.chatIdRequired'],
    ['a blank chat id', { botToken: BOT_TOKEN, chatId: ' ' }, 'notifications.chatIdRequired'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('telegramProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = { botToken: BOT_TOKEN, chatId: '-100123' };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts sendMessage with the subject line, then the text, and no parse mode', async () => {
    endpoint.answer(200, { ok: true, result: { message_id: 12, chat: { id: -100123 }, text: '…' } });

    const answer = await sut.send(aMessage(), config, contextFor(endpoint));

    expect(answer.status).toBe(200);
    expect(answer.detail).toBe('OK');
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({
      chat_id: '-100123',
      text: '[DOWN] Shop API\n\nShop API is down.\nReason: Connection refused',
      disable_web_page_preview: true,
    });
  });

  it('cuts a text longer than Telegram accepts', async () => {
    endpoint.answer(200, { ok: true, result: {} });

    await sut.send(aMessage({ text: '😀'.repeat(3_000) }), config, contextFor(endpoint));

    const text = (endpoint.last.json as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(4_096);
    expect(text.endsWith('…')).toBe(true);
    expect(text).not.toMatch(/[\ud800-\udbff]…$/);
  });

  it.each([
    ['a wrong chat', 400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' }, 'Bad Request: chat not found', false],
    ['a revoked token', 401, { ok: false, error_code: 401, description: 'Unauthorized' }, 'Unauthorized', false],
    [
      'a blocked bot',
      403,
      { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
      'Forbidden: bot was blocked by the user',
      false,
    ],
    [
      'ok false with 200',
      200,
      { ok: false, description: 'Bad Request: message text is empty' },
      'Bad Request: message text is empty',
      false,
    ],
    ['a server error', 502, '<html>Bad Gateway</html>', 'HTTP 502 Bad Gateway', true],
  ])('fails on %s with Telegram’s description', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ message, status, retryable });
  });

  it('fails on 429 with the wait Telegram asks for', async () => {
    endpoint.answer(429, { ok: false, error_code: 429, description: 'Too Many Requests', parameters: { retry_after: 35 } });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message: 'Too Many Requests (retry after 35 s)', status: 429, retryable: true, retryAfterMs: 35_000 });
  });

  it('does not repeat the wait when the description already says it', async () => {
    endpoint.answer(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 5', parameters: { retry_after: 5 } });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('Too Many Requests: retry after 5');
  });

  it('names the new chat id when a group became a supergroup', async () => {
    endpoint.answer(400, {
      ok: false,
      error_code: 400,
      description: 'Bad Request: group chat was upgraded to a supergroup chat',
      parameters: { migrate_to_chat_id: -1001234567890 },
    });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('Bad Request: group chat was upgraded to a supergroup chat (the chat id is now -1001234567890)');
  });

  it('fails when a 200 answer is not Telegram’s', async () => {
    endpoint.answer(200, 'hello');

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message: 'Telegram did not confirm the message', status: 200 });
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });

  it('never shows the bot token, even when the answer echoes the request URL', async () => {
    const url = `${endpoint.url}/bot${BOT_TOKEN}/sendMessage`;
    endpoint.answer(404, {
      ok: false,
      error_code: 404,
      description: `Not Found: ${url} (token ${BOT_TOKEN}, ${encodeURIComponent(BOT_TOKEN)})`,
    });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toMatch(/^Not Found: \[redacted\]/);
    expect(error.message).not.toContain(BOT_TOKEN);
    expect(error.message).not.toContain(BOT_TOKEN.split(':')[1]);
    expect(error.message).not.toContain(encodeURIComponent(BOT_TOKEN));
  });

  it('never shows the bot token in the detail of a success', async () => {
    endpoint.answer(200, { ok: true, result: { text: `sent by bot${BOT_TOKEN}` } });

    const answer = await sut.send(aMessage(), config, contextFor(endpoint));

    expect(answer.detail).not.toContain(BOT_TOKEN);
  });
});

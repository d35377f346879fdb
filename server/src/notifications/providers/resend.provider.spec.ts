import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { DeliveryError } from './provider';
import { resendProvider as sut } from './resend.provider';

const validate = validatorOf('resend');

const API_KEY = 're_123456789_AbCdEfGhIjKlMnOpQrStUvWx';
const VALID = { apiKey: API_KEY, from: 'Vigil <alerts@example.com>', to: ['ops@example.com'] };

describe('resendProvider config (CHANNEL_SPECS)', () => {
  it('trims the fields, normalises the recipient list and drops unknown ones', () => {
    expect(validate({ apiKey: ` ${API_KEY} `, from: ' alerts@example.com ', to: ' a@example.com ,b@example.org, ', extra: true })).toEqual({
      ok: true,
      config: { apiKey: API_KEY, from: 'alerts@example.com', to: ['a@example.com', 'b@example.org'] },
    });
  });

  it.each([
    ['a plain address', 'alerts@example.com'],
    ['a display name', 'Vigil Alerts <alerts@example.com>'],
    ['a quoted display name', '"Vigil, Alerts" <alerts@mail.example.co.uk>'],
    ['a display name in another script', '监控 <alerts@example.com>'],
    ['a plus address', 'alerts+vigil@example.com'],
  ])('accepts a sender with %s', (_case, from) => {
    expect(validate({ ...VALID, from })).toEqual({ ok: true, config: { ...VALID, from } });
  });

  it('accepts the config as a JSON string', () => {
    expect(validate(JSON.stringify(VALID))).toEqual({ ok: true, config: VALID });
  });

  it.each([
    ['a number', 42, 'notifications.configInvalid'],
    ['a JSON string of an array', '[]', 'notifications.configInvalid'],
    ['no api key', { ...VALID, apiKey: undefined }, 'notifications.apiKeyRequired'],
    ['a blank api key', { ...VALID, apiKey: '  ' }, 'notifications.apiKeyRequired'],
    ['no sender', { ...VALID, from: '' }, 'notifications.senderRequired'],
    ['a sender without a domain', { ...VALID, from: 'alerts@localhost' }, 'notifications.senderInvalid'],
    ['a sender without @', { ...VALID, from: 'alerts.example.com' }, 'notifications.senderInvalid'],
    ['a sender with an empty display name', { ...VALID, from: '<alerts@example.com>' }, 'notifications.senderInvalid'],
    ['a sender with an unclosed bracket', { ...VALID, from: 'Vigil <alerts@example.com' }, 'notifications.senderInvalid'],
    ['a sender with a line break', { ...VALID, from: 'Vigil\nBcc: x@evil.com <alerts@example.com>' }, 'notifications.senderInvalid'],
    ['no recipient', { ...VALID, to: '' }, 'notifications.recipientRequired'],
    ['only commas', { ...VALID, to: ' , ,' }, 'notifications.recipientRequired'],
    ['a recipient that is not an address', { ...VALID, to: 'ops@example.com, ops' }, 'notifications.recipientInvalid'],
    [
      'more than 50 recipients',
      { ...VALID, to: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`).join(',') },
      'notifications.recipientInvalid',
    ],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('resendProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = { apiKey: API_KEY, from: 'Vigil <alerts@example.com>', to: ['a@example.com', 'b@example.org'] };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the email with the bearer key, each recipient, a text and an escaped html part', async () => {
    endpoint.answer(200, { id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' });
    const message = aMessage({ subject: 'Down: <Shop> & "API"', text: 'Line 1 <b>\nLine 2' });

    const answer = await sut.send(message, config, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/emails');
    expect(endpoint.last.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    const body = endpoint.last.json as Record<string, string>;
    expect(body).toMatchObject({
      from: 'Vigil <alerts@example.com>',
      to: ['a@example.com', 'b@example.org'],
      subject: 'Down: <Shop> & "API"',
      text: 'Line 1 <b>\nLine 2',
    });
    expect(body.html).toContain('Down: &lt;Shop&gt; &amp; &quot;API&quot;');
    expect(body.html).toContain('Line 1 &lt;b&gt;<br>\nLine 2');
    expect(body.html).not.toContain('<Shop>');
    expect(body.html).not.toContain('<b>');
  });

  it.each([
    [422, { statusCode: 422, message: 'Invalid `from` field.', name: 'validation_error' }, 'Invalid `from` field.', false],
    [
      403,
      { statusCode: 403, message: 'The example.com domain is not verified.', name: 'validation_error' },
      'The example.com domain is not verified.',
      false,
    ],
    [429, { statusCode: 429, message: 'Too many requests.', name: 'rate_limit_exceeded' }, 'Too many requests.', true],
    [500, { statusCode: 500, name: 'internal_server_error' }, 'internal_server_error', true],
    [502, 'Bad Gateway', 'HTTP 502 Bad Gateway', true],
  ])('fails on %i with Resend’s message', async (status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ message, status, retryable });
  });

  it("sends the delivery key as X-Vigil-Delivery and as Resend's Idempotency-Key, so a retry sends no second email", async () => {
    const deliveryId = '5b0e3c3e-8a5e-4d7f-9a51-0c9f3f1d2a77';
    await sut.send(aMessage(), config, contextFor(endpoint, { deliveryId }));

    expect(endpoint.last.headers).toMatchObject({ 'x-vigil-delivery': deliveryId, 'idempotency-key': deliveryId });
  });

  it('never shows the api key, even when the answer repeats it', async () => {
    endpoint.answer(401, { statusCode: 401, message: `API key ${API_KEY} is invalid`, name: 'validation_error' });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('API key [redacted] is invalid');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

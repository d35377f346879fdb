import { aMessage, contextFor, FakeEndpoint, FIXED_NOW, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { webhookProvider as sut } from './webhook.provider';

const validate = validatorOf('webhook');

describe('webhookProvider config (CHANNEL_SPECS)', () => {
  it('trims the URL and the headers and drops unknown fields', () => {
    expect(validate({ url: ' https://example.com/hook ', headers: { ' Authorization ': ' Bearer abc ' }, extra: 1 })).toEqual({
      ok: true,
      config: { url: 'https://example.com/hook', headers: { Authorization: 'Bearer abc' } },
    });
  });

  it.each([
    ['no headers', { url: 'http://10.0.0.5:8080/hook' }, { url: 'http://10.0.0.5:8080/hook' }],
    ['null headers', { url: 'http://h.example/x', headers: null }, { url: 'http://h.example/x' }],
    ['empty headers', { url: 'http://h.example/x', headers: {} }, { url: 'http://h.example/x' }],
    ['headers as an empty string', { url: 'http://h.example/x', headers: ' ' }, { url: 'http://h.example/x' }],
    [
      'headers as a JSON string',
      { url: 'http://h.example/x', headers: '{"X-Token":"t"}' },
      { url: 'http://h.example/x', headers: { 'X-Token': 't' } },
    ],
    [
      'a row with a blank name',
      { url: 'http://h.example/x', headers: { ' ': 'ignored', 'X-A': '1' } },
      { url: 'http://h.example/x', headers: { 'X-A': '1' } },
    ],
    ['an empty header value', { url: 'http://h.example/x', headers: { 'X-A': '' } }, { url: 'http://h.example/x', headers: { 'X-A': '' } }],
    ['30 headers', { url: 'http://h.example/x', headers: manyHeaders(30) }, { url: 'http://h.example/x', headers: manyHeaders(30) }],
  ])('accepts %s', (_case, config, expected) => {
    expect(validate(config)).toEqual({ ok: true, config: expected });
  });

  it('accepts the whole config as a JSON string', () => {
    expect(validate('{"url":"https://example.com/hook"}')).toEqual({ ok: true, config: { url: 'https://example.com/hook' } });
  });

  it.each([
    ['a string that is not JSON', 'https://example.com', 'notifications.configInvalid'],
    ['no URL', { headers: {} }, 'notifications.webhookUrlRequired'],
    ['a blank URL', { url: '  ' }, 'notifications.webhookUrlRequired'],
    ['an ftp URL', { url: 'ftp://example.com/hook' }, 'notifications.webhookUrlInvalid'],
    ['a URL without a scheme', { url: 'example.com/hook' }, 'notifications.webhookUrlInvalid'],
    ['a URL with a space', { url: 'https://example.com/a hook' }, 'notifications.webhookUrlInvalid'],
    ['headers as a list', { url: 'https://example.com', headers: [['X-A', '1']] }, 'notifications.headersInvalid'],
    ['headers as text that is not JSON', { url: 'https://example.com', headers: 'X-A: 1' }, 'notifications.headersInvalid'],
    ['a number value', { url: 'https://example.com', headers: { 'X-A': 1 } }, 'notifications.headersInvalid'],
    ['a name with a space', { url: 'https://example.com', headers: { 'X A': '1' } }, 'notifications.headersInvalid'],
    ['a name with a colon', { url: 'https://example.com', headers: { 'X-A:': '1' } }, 'notifications.headersInvalid'],
    ['a value with a line break', { url: 'https://example.com', headers: { 'X-A': '1\r\nX-B: 2' } }, 'notifications.headersInvalid'],
    ['a value outside Latin-1', { url: 'https://example.com', headers: { 'X-A': '••••' } }, 'notifications.headersInvalid'],
    ['a framing header', { url: 'https://example.com', headers: { 'Content-Length': '3' } }, 'notifications.headersInvalid'],
    ['the same name twice', { url: 'https://example.com', headers: { 'X-A': '1', 'x-a': '2' } }, 'notifications.headersInvalid'],
    ['31 headers', { url: 'https://example.com', headers: manyHeaders(31) }, 'notifications.headersInvalid'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('webhookProvider.send', () => {
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the webhook payload with the notifier headers and the custom ones', async () => {
    endpoint.answer(204, '');

    const answer = await sut.send(
      aMessage(),
      { url: `${endpoint.url}/hooks/vigil?team=ops`, headers: { Authorization: 'Bearer s3cret-value' } },
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 204, detail: 'No Content' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/hooks/vigil?team=ops');
    expect(endpoint.last.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Vigil-Notifier/1.0',
      authorization: 'Bearer s3cret-value',
    });
    expect(endpoint.last.json).toEqual({
      event: 'monitor.down',
      severity: 'alert',
      subject: '[DOWN] Shop API',
      text: 'Shop API is down.\nReason: Connection refused',
      target: { kind: 'monitor', id: 7, name: 'Shop API' },
      sent_at: new Date(FIXED_NOW).toISOString(),
    });
  });

  it('carries the delivery key in the X-Vigil-Delivery header and as delivery_id, over a custom header of that name', async () => {
    const deliveryId = '5b0e3c3e-8a5e-4d7f-9a51-0c9f3f1d2a77';
    await sut.send(aMessage(), { url: endpoint.url, headers: { 'X-Vigil-Delivery': 'mine' } }, contextFor(endpoint, { deliveryId }));

    expect(endpoint.last.headers['x-vigil-delivery']).toBe(deliveryId);
    expect(endpoint.last.json).toMatchObject({ event: 'monitor.down', delivery_id: deliveryId });
  });

  it('lets a custom header replace the content type', async () => {
    await sut.send(aMessage(), { url: endpoint.url, headers: { 'Content-Type': 'application/json; charset=utf-8' } }, contextFor(endpoint));

    expect(endpoint.last.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it.each([
    [200, 'OK'],
    [201, 'Created'],
    [202, 'Accepted'],
    [299, ''],
  ])('takes %i as delivered, answering only its reason phrase', async (status, detail) => {
    endpoint.answer(status, 'received');

    await expect(sut.send(aMessage(), { url: endpoint.url }, contextFor(endpoint))).resolves.toEqual({ status, detail });
  });

  it.each([
    [400, false],
    [404, false],
    [429, true],
    [500, true],
  ])('fails on %i', async (status, retryable) => {
    endpoint.answer(status, 'nope');

    const error = await rejectionOf(sut.send(aMessage(), { url: endpoint.url }, contextFor(endpoint)));

    expect(error).toMatchObject({ message: expect.stringMatching(new RegExp(`^HTTP ${status} [A-Z]`)), status, retryable });
    expect(error.message).not.toContain('nope');
  });

  it('never shows the URL, a header value or anything else the receiver answers', async () => {
    const url = `${endpoint.url}/hooks/T0KEN-0123456789abcdef?key=abcdef123456`;
    endpoint.answer(401, `POST ${url} with Authorization: Bearer s3cret-value refused`);

    const error = await rejectionOf(sut.send(aMessage(), { url, headers: { Authorization: 'Bearer s3cret-value' } }, contextFor(endpoint)));

    expect(error.message).toBe('HTTP 401 Unauthorized');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), { url: endpoint.url }, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

function manyHeaders(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-H${i}`, String(i)]));
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { AddressDenyList, guardedConnector } from '../../common/outbound';
import { contextFor, FakeEndpoint, rejectionOf } from './fake-endpoint.testing';
import { formatSeconds, isRetryable, postJson, Redactor } from './http';
import { DeliveryError } from './provider';

describe('postJson', () => {
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the payload as JSON with the notifier user agent and resolves with the status and its reason phrase', async () => {
    endpoint.answer(201, { id: 'abc' });

    const answer = await postJson(`${endpoint.url}/hook`, { hello: 'wörld' }, contextFor(endpoint), { headers: { 'X-Extra': 'yes' } });

    expect(answer).toEqual({ status: 201, detail: 'Created' });
    expect(endpoint.last).toMatchObject({ method: 'POST', url: '/hook', json: { hello: 'wörld' } });
    expect(endpoint.last.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Vigil-Notifier/1.0',
      'x-extra': 'yes',
    });
  });

  it('never repeats the body of a success (an internal address could answer anything)', async () => {
    endpoint.answer(200, 'internal-secret '.repeat(100));

    const answer = await postJson(endpoint.url, {}, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
  });

  it('fails with the status line alone on a non-2xx answer, whatever the body says', async () => {
    endpoint.answer(503, 'db password=hunter2 at 10.0.0.5\n');

    const error = await rejectionOf(postJson(endpoint.url, {}, contextFor(endpoint)));

    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ message: 'HTTP 503 Service Unavailable', status: 503, retryable: true });
  });

  it('shows a provider’s own error field on one line, cut to 160 characters', async () => {
    endpoint.answer(400, { error: 'x' });

    const error = await rejectionOf(
      postJson(endpoint.url, {}, contextFor(endpoint), { check: () => ({ message: `line one\r\nline\u0000two ${'y'.repeat(300)}` }) }),
    );

    expect(error.message).toMatch(/^line one line two y+…$/);
    expect(error.message).toHaveLength(160);
  });

  it('refuses a destination OUTBOUND_DENY covers, for good', async () => {
    const dispatcher = new Agent({ connect: guardedConnector(AddressDenyList.parse('127.0.0.0/8')) });

    const error = await rejectionOf(postJson(endpoint.url, {}, contextFor(endpoint, { dispatcher })));

    expect(error).toMatchObject({ message: 'Address 127.0.0.1 is refused by OUTBOUND_DENY', status: null, retryable: false });
    expect(endpoint.requests).toHaveLength(0);
    await dispatcher.close();
  });

  it('does not follow redirects', async () => {
    endpoint.answer(302, '', { location: `${endpoint.url}/elsewhere` });

    const error = await rejectionOf(postJson(endpoint.url, {}, contextFor(endpoint)));

    expect(error).toMatchObject({ message: 'HTTP 302 Found', status: 302, retryable: false });
    expect(endpoint.requests).toHaveLength(1);
  });

  it('reads the wait a 429 asks for from Retry-After', async () => {
    endpoint.answer(429, 'slow down', { 'retry-after': '30' });

    const error = await rejectionOf(postJson(endpoint.url, {}, contextFor(endpoint)));

    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 30_000 });
  });

  it('gives up after the timeout when the server never answers', async () => {
    endpoint.hang();
    const started = Date.now();

    const error = await rejectionOf(postJson(endpoint.url, {}, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a refused connection without the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await rejectionOf(postJson(`http://127.0.0.1:${port}/secret-path-0123456789`, {}, contextFor(endpoint)));

    expect(error).toMatchObject({ message: 'Connection refused', status: null, retryable: true });
  });

  it('sends credentials in the URL as Basic auth', async () => {
    const url = new URL(endpoint.url);
    url.username = 'user';
    url.password = 'p@ss word';

    await postJson(`${url.href}hook`, {}, contextFor(endpoint));

    expect(endpoint.last.headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss word').toString('base64')}`);
    expect(endpoint.last.url).toBe('/hook');
  });

  it('never repeats the URL, its token or a given secret in a message or detail', async () => {
    const token = 'tok_0123456789abcdefghij';
    const url = `${endpoint.url}/hook/${token}?key=querysecret42`;
    endpoint.answer(
      400,
      `bad request to ${url} with ${token}, key querysecret42, apiKey re_SECRETKEY and ${encodeURIComponent('a:b/c=secret')}`,
    );

    const error = await rejectionOf(postJson(url, {}, contextFor(endpoint), { secrets: ['re_SECRETKEY', 'a:b/c=secret'] }));

    expect(error.message).toBe('HTTP 400 Bad Request');
    for (const secret of [endpoint.url, token, 'querysecret42', 're_SECRETKEY', 'a:b/c=secret', encodeURIComponent('a:b/c=secret')]) {
      expect(error.message).not.toContain(secret);
    }
  });

  it('lets the provider reject a 2xx answer, keeping the message redacted', async () => {
    endpoint.answer(200, { ok: false });

    const error = await rejectionOf(
      postJson(`${endpoint.url}/x`, {}, contextFor(endpoint), {
        secrets: ['hunter2-secret'],
        check: () => ({ message: 'no with hunter2-secret' }),
      }),
    );

    expect(error).toMatchObject({ message: 'no with [redacted]', status: 200, retryable: false });
  });
});

describe('isRetryable', () => {
  it.each([
    ['a network error', new DeliveryError('Connection refused'), true],
    ['a timeout', new DeliveryError('Timed out after 10 s'), true],
    ['a 429', new DeliveryError('Too Many Requests', 429), true],
    ['a 500', new DeliveryError('HTTP 500', 500), true],
    ['a 502', new DeliveryError('HTTP 502', 502), true],
    ['a 400', new DeliveryError('Bad Request', 400), false],
    ['a 401', new DeliveryError('Unauthorized', 401), false],
    ['a 404', new DeliveryError('Not Found', 404), false],
    ['a rate limit reported with 200', new DeliveryError('send too fast', 200, { retryable: true }), true],
    ['an error that is not a delivery error', new Error('bug'), false],
  ])('answers for %s', (_case, error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});

describe('Redactor', () => {
  it('replaces the longest secret first so a URL disappears whole', () => {
    const sut = new Redactor(['abcd1234', 'https://hooks.example.com/abcd1234/def']);

    expect(sut.redact('posted to https://hooks.example.com/abcd1234/def and abcd1234')).toBe('posted to [redacted] and [redacted]');
  });
});

describe('formatSeconds', () => {
  it.each([
    [10_000, '10'],
    [200, '0.2'],
    [1_500, '1.5'],
  ])('shows %i ms as %s s', (ms, text) => {
    expect(formatSeconds(ms)).toBe(text);
  });
});

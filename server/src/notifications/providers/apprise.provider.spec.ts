import { appriseProvider as sut } from './apprise.provider';
import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';

const validate = validatorOf('apprise');

const URLS = 'tgram://123456789:AAFsecretBotToken0123456789abcdef/-100123, mailto://ops:mail-Passw0rd@example.com';

describe('appriseProvider config (CHANNEL_SPECS)', () => {
  it.each([
    ['URLs', { serverUrl: 'http://apprise:8000', urls: URLS }],
    ['a configuration key', { serverUrl: 'http://apprise:8000', configKey: 'vigil_ops-1' }],
  ])('takes %s', (_case, config) => {
    expect(validate(config)).toEqual({ ok: true, config });
  });

  it.each([
    ['no server', { urls: URLS }, 'notifications.fieldRequired'],
    ['neither URLs nor a key', { serverUrl: 'http://apprise:8000' }, 'notifications.fieldRequired'],
    ['a key Apprise would refuse', { serverUrl: 'http://apprise:8000', configKey: 'a/b' }, 'notifications.fieldInvalid'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('appriseProvider.send', () => {
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, { error: null, details: [] });
  });
  afterEach(() => endpoint.close());

  it.each([
    ['an alert', aMessage(), 'failure'],
    ['a recovery', aMessage({ event: 'monitor.recovery', severity: 'recovery' }), 'success'],
    ['a test', aMessage({ event: 'test', severity: 'info' }), 'info'],
  ])('posts %s with its URLs to the stateless /notify/, typed for Apprise', async (_case, message, type) => {
    const answer = await sut.send(message, { serverUrl: `${endpoint.url}/apprise/`, urls: URLS }, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last).toMatchObject({ method: 'POST', url: '/apprise/notify/', headers: { accept: 'application/json' } });
    expect(endpoint.last.json).toEqual({ urls: URLS, title: message.subject, body: message.text, type, format: 'text' });
  });

  it('posts to the saved configuration’s key, with the link as the last line', async () => {
    await sut.send(
      aMessage({ link: 'https://vigil.example/monitors/7' }),
      { serverUrl: endpoint.url, configKey: 'ops' },
      contextFor(endpoint),
    );

    expect(endpoint.last.url).toBe('/notify/ops');
    expect(endpoint.last.json).toEqual({
      title: '[DOWN] Shop API',
      body: 'Shop API is down.\nReason: Connection refused\n\nhttps://vigil.example/monitors/7',
      type: 'failure',
      format: 'text',
    });
  });

  it('sends the subject as the body when the text is empty, and cuts a long body', async () => {
    await sut.send(aMessage({ text: '' }), { serverUrl: endpoint.url, configKey: 'ops' }, contextFor(endpoint));
    expect(endpoint.last.json).toMatchObject({ body: '[DOWN] Shop API' });

    await sut.send(aMessage({ text: 'é'.repeat(40_000) }), { serverUrl: endpoint.url, configKey: 'ops' }, contextFor(endpoint));
    const { body } = endpoint.last.json as { body: string };
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(32 * 1024);
    expect(body.endsWith('…')).toBe(true);
  });

  it.each([
    [204, '', 'HTTP 204 No Content: Apprise sent nothing (no valid Apprise URL, or no configuration under the key)', false],
    [400, { error: 'Payload lacks minimum requirements' }, 'HTTP 400 Bad Request: Payload lacks minimum requirements', false],
    [
      424,
      { error: 'One or more notifications could not be sent', details: [] },
      'HTTP 424 Failed Dependency: One or more notifications could not be sent',
      false,
    ],
    [500, 'Traceback…', 'HTTP 500 Internal Server Error', true],
  ])('fails on %i with Apprise’s error', async (status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), { serverUrl: endpoint.url, urls: URLS }, contextFor(endpoint)));

    expect(error).toMatchObject({ name: 'DeliveryError', message, status, retryable });
  });

  it('never shows the Apprise URLs or their tokens, and never Apprise’s log', async () => {
    endpoint.answer(424, {
      error: 'Could not send to tgram://123456789:AAFsecretBotToken0123456789abcdef/-100123 nor mail-Passw0rd',
      details: [{ message: 'log with AAFsecretBotToken0123456789abcdef' }],
    });

    const error = await rejectionOf(sut.send(aMessage(), { serverUrl: endpoint.url, urls: URLS }, contextFor(endpoint)));

    expect(error.message).not.toMatch(/AAFsecretBotToken|mail-Passw0rd|tgram:/);
    expect(error.message).toBe('HTTP 424 Failed Dependency: Could not send to [redacted] nor [redacted]');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(
      sut.send(aMessage(), { serverUrl: endpoint.url, urls: URLS }, contextFor(endpoint, { timeoutMs: 200 })),
    );

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

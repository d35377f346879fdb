import { MockAgent } from 'undici';
import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { opsgenieProvider as sut } from './opsgenie.provider';

const validate = validatorOf('opsgenie');

const API_KEY = 'eb243592-faa2-4ba2-a551q-1afdf565c889';
const CONFIG = { apiKey: API_KEY, region: 'us', priority: 'P1' } as const;

describe('opsgenieProvider config (CHANNEL_SPECS)', () => {
  it('fills the region and the priority', () => {
    expect(validate({ apiKey: API_KEY })).toEqual({ ok: true, config: CONFIG });
  });

  it.each([
    ['no key', {}, 'notifications.fieldRequired'],
    ['a key with spaces', { apiKey: 'a b' }, 'notifications.fieldInvalid'],
    ['an unknown region', { apiKey: API_KEY, region: 'apac' }, 'notifications.fieldSelect'],
    ['an unknown priority', { apiKey: API_KEY, priority: 'P0' }, 'notifications.fieldSelect'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('opsgenieProvider.send', () => {
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(202, { result: 'Request will be processed', took: 0.302, requestId: '43a29c5c' });
  });
  afterEach(() => endpoint.close());

  it('creates an alert aliased by the episode, with the GenieKey and the link', async () => {
    const message = aMessage({ episode: 'monitor:7:status:3', link: 'https://vigil.example/monitors/7' });

    const answer = await sut.send(message, { ...CONFIG, priority: 'P2' }, contextFor(endpoint));

    expect(answer).toEqual({ status: 202, detail: 'Accepted' });
    expect(endpoint.last).toMatchObject({ method: 'POST', url: '/v2/alerts', headers: { authorization: `GenieKey ${API_KEY}` } });
    expect(endpoint.last.json).toEqual({
      message: '[DOWN] Shop API',
      alias: 'vigil-monitor-7-status-3',
      description: 'Shop API is down.\nReason: Connection refused\n\nhttps://vigil.example/monitors/7',
      priority: 'P2',
      source: 'Vigil',
      entity: 'Shop API',
      tags: ['vigil', 'monitor', 'monitor.down'],
      details: { event: 'monitor.down', link: 'https://vigil.example/monitors/7' },
    });
  });

  it('closes the alert by the same alias on recovery', async () => {
    const recovery = aMessage({
      event: 'monitor.recovery',
      severity: 'recovery',
      subject: '[UP] Shop API',
      text: 'Back up.',
      episode: 'monitor:7:status:3',
    });

    await sut.send(recovery, CONFIG, contextFor(endpoint));

    expect(endpoint.last).toMatchObject({
      method: 'POST',
      url: '/v2/alerts/vigil-monitor-7-status-3/close?identifierType=alias',
      headers: { authorization: `GenieKey ${API_KEY}` },
    });
    expect(endpoint.last.json).toEqual({ source: 'Vigil', note: '[UP] Shop API\nBack up.' });
  });

  it('sends a test as P5', async () => {
    const test = aMessage({ event: 'test', severity: 'info', target: { kind: 'test', id: null, name: 'ops' } });

    await sut.send(test, CONFIG, contextFor(endpoint, { deliveryId: 'd-1' }));

    expect(endpoint.last.json).toMatchObject({ alias: 'vigil-test-d-1', priority: 'P5' });
  });

  it('cuts the message to 130 and the description to 15,000 characters', async () => {
    await sut.send(aMessage({ subject: 's'.repeat(300), text: 't'.repeat(20_000) }), CONFIG, contextFor(endpoint));

    const { message, description } = endpoint.last.json as { message: string; description: string };
    expect([message.length, description.length]).toEqual([130, 15_000]);
    expect(message.endsWith('…') && description.endsWith('…')).toBe(true);
  });

  it('uses the EU host for an EU account, unless OPSGENIE_API_URL points elsewhere', async () => {
    const eu = { ...CONFIG, region: 'eu' } as const;
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://api.eu.opsgenie.com')
      .intercept({ path: '/v2/alerts', method: 'POST' })
      .reply(202, { result: 'Request will be processed' });

    const answer = await sut.send(aMessage(), eu, contextFor(endpoint, { apiUrl: 'https://api.opsgenie.com', dispatcher: agent }));
    expect(answer.status).toBe(202);
    agent.assertNoPendingInterceptors();
    await agent.close();

    await sut.send(aMessage(), eu, contextFor(endpoint));
    expect(endpoint.last.url).toBe('/v2/alerts');
  });

  it.each([
    [401, { message: 'Key format is not valid!', took: 0.001 }, 'HTTP 401 Unauthorized: Key format is not valid!', false],
    [
      422,
      { message: 'Request body is not processable. Please check the errors.', errors: { message: 'Message can not be empty.' } },
      'HTTP 422 Unprocessable Entity: Request body is not processable. Please check the errors. Message can not be empty.',
      false,
    ],
    [429, { message: 'You are making too many requests!' }, 'HTTP 429 Too Many Requests: You are making too many requests!', true],
    [503, '<html>down</html>', 'HTTP 503 Service Unavailable', true],
  ])('fails on %i with Opsgenie’s reason', async (status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), CONFIG, contextFor(endpoint)));

    expect(error).toMatchObject({ name: 'DeliveryError', message, status, retryable });
  });

  it('never shows the API key', async () => {
    endpoint.answer(403, { message: `Key ${API_KEY} is not allowed` });

    const error = await rejectionOf(sut.send(aMessage(), CONFIG, contextFor(endpoint)));

    expect(error.message).toBe('HTTP 403 Forbidden: Key [redacted] is not allowed');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), CONFIG, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

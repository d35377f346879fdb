import { barkProvider as sut } from './bark.provider';
import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';

const validate = validatorOf('bark');

const DEVICE_KEY = 'NRp7Ghx9pKvQ2cSKuW8Fm3';
const LINK = 'https://vigil.example.com/monitors/7';

describe('barkProvider config (CHANNEL_SPECS)', () => {
  it('fills the public server', () => {
    expect(validate({ deviceKey: DEVICE_KEY })).toEqual({ ok: true, config: { serverUrl: 'https://api.day.app', deviceKey: DEVICE_KEY } });
  });

  it.each([
    ['no device key', {}],
    ['a device key with a space', { deviceKey: 'abc def' }],
  ])('rejects %s', (_case, config) => {
    expect(validate(config)).toMatchObject({ ok: false });
  });
});

describe('barkProvider.send', () => {
  let endpoint: FakeEndpoint;
  let config: { serverUrl: string; deviceKey: string; group?: string; sound?: string };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, { code: 200, message: 'success', timestamp: 1714564800 });
    config = { serverUrl: endpoint.url, deviceKey: DEVICE_KEY, group: 'Vigil', sound: 'alarm' };
  });
  afterEach(() => endpoint.close());

  it('posts a down to /push with the device key in the body, time-sensitive, opening the page on tap', async () => {
    const answer = await sut.send(aMessage({ link: LINK }), config, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/push');
    expect(endpoint.last.json).toEqual({
      device_key: DEVICE_KEY,
      title: '[DOWN] Shop API',
      body: 'Shop API is down.\nReason: Connection refused',
      level: 'timeSensitive',
      group: 'Vigil',
      sound: 'alarm',
      url: LINK,
    });
  });

  it('posts a recovery at the active level, without the fields that are not set', async () => {
    await sut.send(
      aMessage({ severity: 'recovery', subject: '[UP] Shop API', text: 'Shop API is up again.' }),
      { serverUrl: endpoint.url, deviceKey: DEVICE_KEY },
      contextFor(endpoint),
    );

    expect(endpoint.last.json).toEqual({ device_key: DEVICE_KEY, title: '[UP] Shop API', body: 'Shop API is up again.', level: 'active' });
  });

  it('cuts the body to fit an APNs payload', async () => {
    await sut.send(aMessage({ text: '中'.repeat(2_000) }), config, contextFor(endpoint));

    const body = (endpoint.last.json as { body: string }).body;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(3000);
    expect(body.endsWith('…')).toBe(true);
  });

  it.each([
    [
      'an unknown device key',
      400,
      { code: 400, message: 'failed to get device token: failed to get [x] device token from database', timestamp: 1 },
      'failed to get device token: failed to get [x] device token from database (code 400)',
      false,
    ],
    ['APNs refusing', 500, { code: 500, message: 'push failed: Unregistered', timestamp: 1 }, 'push failed: Unregistered (code 500)', true],
    ['a 200 that is not Bark’s', 200, '<html>captive portal</html>', 'Bark did not confirm the message', false],
    ['a rate-limiting proxy', 429, 'Too Many Requests', 'HTTP 429 Too Many Requests', true],
  ])('fails on %s with Bark’s message', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the device key', async () => {
    endpoint.answer(400, { code: 400, message: `failed to get device token: key ${DEVICE_KEY} not found` });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('failed to get device token: key [redacted] not found (code 400)');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

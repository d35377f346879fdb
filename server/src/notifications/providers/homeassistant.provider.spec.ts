import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { homeassistantProvider as sut } from './homeassistant.provider';

const validate = validatorOf('homeassistant');

const ACCESS_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJhYmMifQ.c2lnbmF0dXJl';
const LINK = 'https://vigil.example.com/monitors/7';

describe('homeassistantProvider config (CHANNEL_SPECS)', () => {
  it('accepts a notify service name', () => {
    expect(
      validate({ serverUrl: 'http://homeassistant.local:8123', accessToken: ACCESS_TOKEN, service: 'mobile_app_pixel_8' }),
    ).toMatchObject({ ok: true });
  });

  it.each([
    ['a service with a dot', { serverUrl: 'http://ha.local:8123', accessToken: ACCESS_TOKEN, service: 'notify.mobile_app' }],
    ['no token', { serverUrl: 'http://ha.local:8123', service: 'notify' }],
  ])('rejects %s', (_case, config) => {
    expect(validate(config)).toMatchObject({ ok: false });
  });
});

describe('homeassistantProvider.send', () => {
  let endpoint: FakeEndpoint;
  let config: { serverUrl: string; accessToken: string; service: string };

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(200, []);
    config = { serverUrl: endpoint.url, accessToken: ACCESS_TOKEN, service: 'mobile_app_pixel_8' };
  });
  afterEach(() => endpoint.close());

  it('calls the notify service with the token as Bearer, the page opening on tap in both apps', async () => {
    const answer = await sut.send(aMessage({ link: LINK }), config, contextFor(endpoint));

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/api/services/notify/mobile_app_pixel_8');
    expect(endpoint.last.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(endpoint.last.json).toEqual({
      title: '[DOWN] Shop API',
      message: 'Shop API is down.\nReason: Connection refused',
      data: { url: LINK, clickAction: LINK },
    });
  });

  it('calls it for a recovery, without data when there is no link', async () => {
    await sut.send(
      aMessage({ severity: 'recovery', subject: '[UP] Shop API', text: 'Shop API is up again.' }),
      config,
      contextFor(endpoint),
    );

    expect(endpoint.last.json).toEqual({ title: '[UP] Shop API', message: 'Shop API is up again.' });
  });

  it('puts the link in the text of a persistent notification, which takes no data', async () => {
    await sut.send(aMessage({ link: LINK }), { ...config, service: 'persistent_notification' }, contextFor(endpoint));

    expect(endpoint.last.url).toBe('/api/services/notify/persistent_notification');
    expect(endpoint.last.json).toEqual({ title: '[DOWN] Shop API', message: `Shop API is down.\nReason: Connection refused\n\n${LINK}` });
  });

  it('calls under the path of a server behind a prefix', async () => {
    await sut.send(aMessage(), { ...config, serverUrl: `${endpoint.url}/ha/` }, contextFor(endpoint));

    expect(endpoint.last.url).toBe('/ha/api/services/notify/mobile_app_pixel_8');
  });

  it.each([
    ['a wrong token', 401, '401: Unauthorized', 'HTTP 401 Unauthorized', false],
    ['an unknown service', 400, '400: Bad Request', 'HTTP 400 Bad Request', false],
    ['a refused call', 400, { message: 'Service notify.x not found.' }, 'HTTP 400 Bad Request: Service notify.x not found.', false],
    ['Home Assistant starting', 503, '503: Service Unavailable', 'HTTP 503 Service Unavailable', true],
  ])('fails on %s', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the token', async () => {
    endpoint.answer(400, { message: `bad token ${ACCESS_TOKEN}` });

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint)));

    expect(error.message).toBe('HTTP 400 Bad Request: bad token [redacted]');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});

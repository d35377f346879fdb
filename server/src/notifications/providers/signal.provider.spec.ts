import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { signalProvider as sut } from './signal.provider';

const validate = validatorOf('signal');

const GROUP = 'group.ZkRMTnNTaGl3VUpCbk9ZUnBqRTZ0OEVCWnc9PQ==';

describe('signalProvider config (CHANNEL_SPECS)', () => {
  it('reads the recipients as a list of numbers and group ids', () => {
    expect(validate({ serverUrl: 'http://signal-cli:8080', number: '+4915112345678', recipients: `+4915198765432, ${GROUP}` })).toEqual({
      ok: true,
      config: { serverUrl: 'http://signal-cli:8080', number: '+4915112345678', recipients: ['+4915198765432', GROUP] },
    });
  });

  it('rejects a recipient that is neither a number nor a group', () => {
    expect(validate({ serverUrl: 'http://signal-cli:8080', number: '+4915112345678', recipients: 'alice' })).toMatchObject({ ok: false });
  });
});

describe('signalProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = () => ({ serverUrl: `${endpoint.url}/`, number: '+4915112345678', recipients: ['+4915198765432', GROUP] });

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the message from the number to every recipient, the link last', async () => {
    endpoint.answer(201, { timestamp: '1714564800123' });

    const answer = await sut.send(aMessage({ link: 'https://vigil.example/monitors/7' }), config(), contextFor(endpoint));

    expect(answer).toEqual({ status: 201, detail: 'Created' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe('/v2/send');
    expect(endpoint.last.json).toEqual({
      message: '[DOWN] Shop API\nShop API is down.\nReason: Connection refused\n\nhttps://vigil.example/monitors/7',
      number: '+4915112345678',
      recipients: ['+4915198765432', GROUP],
    });
  });

  it('sends a recovery the same way', async () => {
    endpoint.answer(201, { timestamp: '1' });

    await sut.send(aMessage({ severity: 'recovery', subject: '[UP] Shop API', text: 'Shop API is up.' }), config(), contextFor(endpoint));

    expect((endpoint.last.json as { message: string }).message).toBe('[UP] Shop API\nShop API is up.');
  });

  it('cuts the text to the 2,000 characters Signal shows', async () => {
    endpoint.answer(201, { timestamp: '1' });

    await sut.send(aMessage({ text: 'x'.repeat(5000) }), config(), contextFor(endpoint));

    expect((endpoint.last.json as { message: string }).message).toHaveLength(2000);
  });

  it.each([
    ['an unregistered number', 400, { error: 'User +4915112345678 is not registered.' }, 'User +4915112345678 is not registered.', false],
    ['an outage', 500, { error: 'Failed to send message: timeout' }, 'Failed to send message: timeout', true],
    ['a proxy in the way', 502, '<html>Bad Gateway</html>', 'HTTP 502 Bad Gateway', true],
  ])('fails on %s with signal-cli’s error', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows credentials given in the server URL', async () => {
    endpoint.answer(401, { error: 'bad login for signal:S3cretPassw0rd' });
    const serverUrl = endpoint.url.replace('http://', 'http://signal:S3cretPassw0rd@');

    const error = await rejectionOf(sut.send(aMessage(), { ...config(), serverUrl }, contextFor(endpoint)));

    expect(endpoint.last.headers.authorization).toBe(`Basic ${Buffer.from('signal:S3cretPassw0rd').toString('base64')}`);
    expect(error.message).not.toContain('S3cretPassw0rd');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

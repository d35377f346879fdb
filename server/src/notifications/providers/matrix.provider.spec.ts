import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { matrixProvider as sut } from './matrix.provider';

const validate = validatorOf('matrix');

const TOKEN = 'syt_dmlnaWw_QWxhcmdlU2VjcmV0VG9rZW4_1a2b3c';
const DELIVERY = '5f0c6c1e-8f0a-4d43-9a0e-0d7c1c1b2a11';

describe('matrixProvider config (CHANNEL_SPECS)', () => {
  it.each([
    ['a room id', '!abcdef:matrix.org'],
    ['a room alias', '#ops:matrix.org'],
  ])('accepts %s', (_case, roomId) => {
    expect(validate({ homeserverUrl: 'https://matrix.org', accessToken: TOKEN, roomId })).toEqual({
      ok: true,
      config: { homeserverUrl: 'https://matrix.org', accessToken: TOKEN, roomId },
    });
  });

  it('rejects a room named without its server', () => {
    expect(validate({ homeserverUrl: 'https://matrix.org', accessToken: TOKEN, roomId: 'ops' })).toEqual({
      ok: false,
      code: 'notifications.fieldInvalid',
    });
  });
});

describe('matrixProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = (roomId = '!abcdef:matrix.org') => ({ homeserverUrl: `${endpoint.url}/`, accessToken: TOKEN, roomId });
  const context = () => contextFor(endpoint, { deliveryId: DELIVERY });

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('PUTs an m.text event with the delivery id as transaction id, the room id encoded and the token as Bearer', async () => {
    endpoint.answer(200, { event_id: '$YUwRidLecu:matrix.org' });

    const answer = await sut.send(
      aMessage({ text: 'Shop <API> is down.\nReason: "refused"', link: 'https://vigil.example/monitors/7' }),
      config(),
      context(),
    );

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.last.method).toBe('PUT');
    expect(endpoint.last.url).toBe(`/_matrix/client/v3/rooms/!abcdef%3Amatrix.org/send/m.room.message/${DELIVERY}`);
    expect(endpoint.last.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(endpoint.last.json).toEqual({
      msgtype: 'm.text',
      body: '[DOWN] Shop API\nShop <API> is down.\nReason: "refused"\n\nhttps://vigil.example/monitors/7',
      format: 'org.matrix.custom.html',
      formatted_body:
        '<b><font color="#e01e5a" data-mx-color="#e01e5a">[DOWN] Shop API</font></b><br>Shop &lt;API&gt; is down.<br>Reason: &quot;refused&quot;<br>' +
        '<a href="https://vigil.example/monitors/7">Shop API</a>',
    });
  });

  it('colours a recovery green', async () => {
    endpoint.answer(200, { event_id: '$e' });

    await sut.send(aMessage({ severity: 'recovery', subject: '[UP] Shop API' }), config(), context());

    expect((endpoint.last.json as { formatted_body: string }).formatted_body).toMatch(
      /^<b><font color="#2eb886" data-mx-color="#2eb886">\[UP\] Shop API/,
    );
  });

  it('sends every attempt of a delivery with the same transaction id', async () => {
    endpoint.answer(200, { event_id: '$e' });

    await sut.send(aMessage(), config(), context());
    await sut.send(aMessage(), config(), context());

    expect(endpoint.requests[0].url).toBe(endpoint.requests[1].url);
  });

  it('resolves a room alias to its id first', async () => {
    endpoint.answer(200, { room_id: '!resolved:matrix.org', servers: ['matrix.org'], event_id: '$e' });

    await sut.send(aMessage(), config('#ops:matrix.org'), context());

    expect(endpoint.requests.map((request) => [request.method, request.url, request.headers.authorization])).toEqual([
      ['GET', '/_matrix/client/v3/directory/room/%23ops%3Amatrix.org', `Bearer ${TOKEN}`],
      ['PUT', `/_matrix/client/v3/rooms/!resolved%3Amatrix.org/send/m.room.message/${DELIVERY}`, `Bearer ${TOKEN}`],
    ]);
    expect(endpoint.requests[0].body).toBe('');
  });

  it('fails when the alias is unknown, without sending', async () => {
    endpoint.answer(404, { errcode: 'M_NOT_FOUND', error: 'Room alias #ops:matrix.org not found' });

    const error = await rejectionOf(sut.send(aMessage(), config('#ops:matrix.org'), context()));

    // The alias is part of the address, which errors never repeat.
    expect(error).toMatchObject({ message: 'M_NOT_FOUND: Room alias [redacted] not found', status: 404, retryable: false });
    expect(endpoint.requests).toHaveLength(1);
  });

  it('cuts a long text so the event stays under 64 KiB', async () => {
    endpoint.answer(200, { event_id: '$e' });

    await sut.send(aMessage({ text: '"'.repeat(100_000) }), config(), context());

    expect(Buffer.byteLength(endpoint.last.body)).toBeLessThan(64 * 1024);
    expect((endpoint.last.json as { body: string }).body.endsWith('…')).toBe(true);
  });

  it.each([
    [
      'a token the server does not know',
      401,
      { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.' },
      'M_UNKNOWN_TOKEN: Invalid access token passed.',
      false,
    ],
    [
      'a room the user is not in',
      403,
      { errcode: 'M_FORBIDDEN', error: 'User @vigil:matrix.org not in room' },
      'M_FORBIDDEN: User @vigil:matrix.org not in room',
      false,
    ],
    ['an outage', 502, '<html>Bad Gateway</html>', 'HTTP 502 Bad Gateway', true],
  ])('fails on %s with the homeserver’s error', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config(), context()));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('fails on 429 with the wait the homeserver asks for', async () => {
    endpoint.answer(429, { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: 2000 });

    const error = await rejectionOf(sut.send(aMessage(), config(), context()));

    expect(error).toMatchObject({ message: 'M_LIMIT_EXCEEDED: Too many requests', status: 429, retryable: true, retryAfterMs: 2000 });
  });

  it('never shows the access token', async () => {
    endpoint.answer(401, { errcode: 'M_UNKNOWN_TOKEN', error: `Unknown token ${TOKEN}` });

    const error = await rejectionOf(sut.send(aMessage(), config(), context()));

    expect(error.message).toBe('M_UNKNOWN_TOKEN: Unknown token [redacted]');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});

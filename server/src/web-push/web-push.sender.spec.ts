import { createECDH, randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { generateVAPIDKeys } from 'web-push';
import { WEB_PUSH_PAYLOAD_MAX, type WebPushPayload } from '@vigil/proto';
import { AddressDenyList, guardedConnector } from '../common/outbound';
import { FakeEndpoint, rejectionOf } from '../notifications/providers/fake-endpoint.testing';
import { DeliveryError } from '../notifications/providers/provider';
import { fitPayload, sendWebPush, type PushOptions, type PushTarget } from './web-push.sender';

const vapid = { subject: 'mailto:ops@example.com', ...generateVAPIDKeys() };

function browser(endpoint: string): PushTarget {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

const payload = (overrides: Partial<WebPushPayload> = {}): WebPushPayload => ({
  title: '[DOWN] Shop API',
  body: 'Shop API is down.\nReason: Connection refused',
  url: '/monitors/7',
  tag: 'vigil-monitor-7',
  severity: 'alert',
  ...overrides,
});

describe(sendWebPush.name, () => {
  let endpoint: FakeEndpoint;
  let options: PushOptions;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(201, '');
    options = { vapid, timeoutMs: 2000 };
  });
  afterEach(() => endpoint.close());

  it('posts an aes128gcm body signed for the endpoint origin, urgent for an alert, kept a day', async () => {
    expect(await sendWebPush(browser(`${endpoint.url}/push/a`), payload(), options)).toBe('sent');
    const { method, url, headers, body } = endpoint.last;
    expect({ method, url }).toEqual({ method: 'POST', url: '/push/a' });
    expect(headers).toMatchObject({
      'content-encoding': 'aes128gcm',
      ttl: '86400',
      urgency: 'high',
      'content-type': 'application/octet-stream',
    });
    expect(headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`));
    const claims = JSON.parse(Buffer.from(headers.authorization!.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ aud: endpoint.url, sub: 'mailto:ops@example.com' });
    expect(body).not.toContain('Shop API');
  });

  it('sends a recovery at normal urgency', async () => {
    await sendWebPush(browser(`${endpoint.url}/push/a`), payload({ severity: 'recovery' }), options);
    expect(endpoint.last.headers.urgency).toBe('normal');
  });

  it.each([404, 410])('answers gone for %i: the subscription is over', async (status) => {
    endpoint.answer(status, 'gone');
    expect(await sendWebPush(browser(`${endpoint.url}/push/a`), payload(), options)).toBe('gone');
  });

  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [403, false],
    [413, false],
  ])('fails on %i, retryable: %s, naming the status but never the endpoint', async (status, retryable) => {
    endpoint.answer(status, 'the push service says something');
    const error = (await rejectionOf(sendWebPush(browser(`${endpoint.url}/push/secret-token`), payload(), options))) as DeliveryError;
    expect(error).toBeInstanceOf(DeliveryError);
    expect({ status: error.status, retryable: error.retryable }).toEqual({ status, retryable });
    expect(error.message).toMatch(new RegExp(`^HTTP ${status}`));
    expect(error.message).not.toMatch(/secret-token|says something/);
  });

  it('times out a push service that never answers, retryably', async () => {
    endpoint.hang();
    const error = (await rejectionOf(
      sendWebPush(browser(`${endpoint.url}/push/a`), payload(), { ...options, timeoutMs: 200 }),
    )) as DeliveryError;
    expect({ message: error.message, retryable: error.retryable }).toEqual({ message: 'Timed out', retryable: true });
  });

  it('refuses an endpoint on an address the outbound policy denies, for good, before connecting', async () => {
    const dispatcher = new Agent({ connect: guardedConnector(AddressDenyList.parse('127.0.0.0/8')) });
    try {
      const error = (await rejectionOf(
        sendWebPush(browser(`${endpoint.url}/push/a`), payload(), { ...options, dispatcher }),
      )) as DeliveryError;
      expect({ message: error.message, retryable: error.retryable }).toEqual({
        message: 'Address 127.0.0.1 is refused by OUTBOUND_DENY',
        retryable: false,
      });
      expect(endpoint.requests).toHaveLength(0);
    } finally {
      await dispatcher.close();
    }
  });
});

describe(fitPayload.name, () => {
  const size = (value: WebPushPayload) => Buffer.byteLength(JSON.stringify(value));

  it('leaves a payload that fits as it is', () => {
    expect(fitPayload(payload())).toEqual(payload());
  });

  it.each([
    ['ASCII', 'x'],
    ['Chinese', '服'],
    ['emoji', '😀'],
    ['characters JSON escapes', '"\n'],
  ])('cuts a long %s body to fit, ending with an ellipsis', (_name, unit) => {
    const sut = fitPayload(payload({ body: unit.repeat(5000) }));
    expect(size(sut)).toBeLessThanOrEqual(WEB_PUSH_PAYLOAD_MAX);
    expect(size(sut)).toBeGreaterThan(WEB_PUSH_PAYLOAD_MAX - 16);
    expect(sut.body.endsWith('…')).toBe(true);
    expect(sut.body).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect({ ...sut, body: '' }).toEqual({ ...payload(), body: '' });
  });

  it('cuts a title past 200 characters', () => {
    expect(Array.from(fitPayload(payload({ title: 'T'.repeat(500) })).title)).toHaveLength(200);
  });
});

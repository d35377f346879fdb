import { createECDH, randomBytes } from 'node:crypto';
import { generateVAPIDKeys } from 'web-push';
import type { WebPushPayload } from '@vigil/proto';
import type { AuthUser } from '../common/decorators';
import { AddressDenyList } from '../common/outbound';
import type { OutboundPolicy } from '../common/outbound-policy';
import { loadConfig } from '../config/config';
import { FakeEndpoint, rejectionOf } from '../notifications/providers/fake-endpoint.testing';
import { DeliveryError } from '../notifications/providers/provider';
import type { SettingsRepository } from '../settings/settings.repository';
import type { PushSubscriptionRow, WebPushRepository } from './web-push.repository';
import { WebPushService } from './web-push.service';

const payload: WebPushPayload = {
  title: '[DOWN] Shop',
  body: 'Shop is down',
  url: '/monitors/7',
  tag: 'vigil-monitor-7',
  severity: 'alert',
};
const member: AuthUser = { id: 5, username: 'member', role: 'user' };

function subscription(id: number, endpoint: string): PushSubscriptionRow {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { id, endpoint, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe(WebPushService.name, () => {
  let endpoint: FakeEndpoint;
  let stored: PushSubscriptionRow[];
  let repository: { forAudience: jest.Mock; delete: jest.Mock; upsert: jest.Mock };
  let settings: { getOrCreate: jest.Mock };
  let sut: WebPushService;

  async function start(env: Record<string, string> = {}): Promise<void> {
    const guard = AddressDenyList.parse('none');
    sut = new WebPushService(
      repository as unknown as WebPushRepository,
      settings as unknown as SettingsRepository,
      loadConfig({ NOTIFICATION_TIMEOUT_SECONDS: '2', ...env }),
      { guard: () => guard } as unknown as OutboundPolicy,
    );
    await sut.onModuleInit();
  }

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(201, '');
    stored = [];
    repository = {
      forAudience: jest.fn(async () => stored),
      delete: jest.fn(async () => undefined),
      upsert: jest.fn(async () => 1),
    };
    // The first instance's keys win: getOrCreate answers what is stored, whatever this one generated.
    const first = generateVAPIDKeys();
    settings = { getOrCreate: jest.fn(async () => first) };
    await start();
  });
  afterEach(async () => {
    await sut.onModuleDestroy();
    await endpoint.close();
  });

  it('publishes the stored VAPID public key, never the private one', async () => {
    const stored = await settings.getOrCreate.mock.results[0].value;
    expect(settings.getOrCreate).toHaveBeenCalledWith('web_push_vapid', { publicKey: expect.any(String), privateKey: expect.any(String) });
    expect(sut.publicKey()).toBe(stored.publicKey);
  });

  it('reports how many browsers took the message', async () => {
    stored = [subscription(1, `${endpoint.url}/push/a`), subscription(2, `${endpoint.url}/push/b`)];
    expect(await sut.deliver('all', payload)).toEqual({ status: 201, detail: 'Sent to 2 of 2 browsers' });
    expect(endpoint.requests.map((request) => request.url).sort()).toEqual(['/push/a', '/push/b']);
  });

  it('succeeds when one browser of several took it, and deletes the subscriptions that are gone', async () => {
    stored = [subscription(1, `${endpoint.url}/push/a`), subscription(2, `http://127.0.0.1:9/closed`)];
    expect(await sut.deliver('admins', payload)).toEqual({ status: 201, detail: 'Sent to 1 of 2 browsers' });
    expect(repository.forAudience).toHaveBeenCalledWith('admins');

    endpoint.answer(410, '');
    const error = (await rejectionOf(sut.deliver('all', payload))) as DeliveryError;
    expect(repository.delete).toHaveBeenCalledWith(1);
    // The other browser's connection was refused: worth a retry.
    expect({ message: error.message, retryable: error.retryable }).toEqual({
      message: 'Sent to 0 of 2 browsers: Request failed: ECONNREFUSED',
      retryable: true,
    });
  });

  it('fails for good when every subscription had expired', async () => {
    endpoint.answer(404, '');
    stored = [subscription(3, `${endpoint.url}/push/a`)];
    const error = (await rejectionOf(sut.deliver('all', payload))) as DeliveryError;
    expect({ message: error.message, retryable: error.retryable }).toEqual({
      message: 'Sent to 0 of 1 browsers: every subscription had expired and was removed',
      retryable: false,
    });
    expect(repository.delete).toHaveBeenCalledWith(3);
  });

  it.each([
    ['all', 'No browser has enabled notifications'],
    ['admins', 'No admin has enabled browser notifications'],
  ] as const)('fails for good with no browser in the audience %s', async (audience, message) => {
    const error = (await rejectionOf(sut.deliver(audience, payload))) as DeliveryError;
    expect({ message: error.message, retryable: error.retryable }).toEqual({ message, retryable: false });
  });

  it('refuses http endpoints unless WEB_PUSH_ALLOW_HTTP is set', async () => {
    const body = { ...subscription(0, 'http://push.example.com/a'), keys: { p256dh: 'k', auth: 'a' } };
    await expect(sut.subscribe(member, body, undefined)).rejects.toMatchObject({ code: 'webPush.endpointInvalid' });
    await sut.onModuleDestroy();
    await start({ WEB_PUSH_ALLOW_HTTP: 'true' });
    expect(await sut.subscribe(member, body, 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(1);
    expect(repository.upsert).toHaveBeenCalledWith(
      { userId: 5, endpoint: 'http://push.example.com/a', p256dh: 'k', auth: 'a', userAgent: 'Firefox on Linux' },
      20,
    );
  });

  it('answers 409 when the user already has 20 other browsers', async () => {
    repository.upsert.mockResolvedValueOnce(null);
    const body = { endpoint: 'https://push.example.com/a', keys: { p256dh: 'k', auth: 'a' } };
    await expect(sut.subscribe(member, body, undefined)).rejects.toMatchObject({ code: 'webPush.tooMany', status: 409 });
  });
});

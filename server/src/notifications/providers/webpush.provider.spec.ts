import { aMessage, contextFor, FakeEndpoint, rejectionOf } from './fake-endpoint.testing';
import type { DeliveryError, WebPushDelivery } from './provider';
import { webpushProvider, webPushPayload } from './webpush.provider';

describe('webpush provider', () => {
  let endpoint: FakeEndpoint;

  beforeAll(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterAll(() => endpoint.close());

  it.each([
    ['a monitor', { kind: 'monitor', id: 7, name: 'Shop API' }, '/monitors/7', 'vigil-monitor-7'],
    ['an agent', { kind: 'agent', id: 3, name: 'db-1' }, '/agents/3', 'vigil-agent-3'],
    ['a test', { kind: 'test', id: null, name: 'Test' }, '/notifications', 'vigil-test'],
  ] as const)('opens %s’s page on click, one notification per target', (_name, target, url, tag) => {
    expect(webPushPayload(aMessage({ target }))).toEqual({
      title: '[DOWN] Shop API',
      body: 'Shop API is down.\nReason: Connection refused',
      url,
      tag,
      severity: 'alert',
    });
  });

  it('hands the payload to the browsers of the configured audience', async () => {
    const webPush = { deliver: jest.fn<ReturnType<WebPushDelivery['deliver']>, Parameters<WebPushDelivery['deliver']>>() };
    webPush.deliver.mockResolvedValue({ status: 201, detail: 'Sent to 3 of 4 browsers' });
    const answer = await webpushProvider.send(
      aMessage({ severity: 'recovery' }),
      { audience: 'admins' },
      contextFor(endpoint, { webPush }),
    );
    expect(answer).toEqual({ status: 201, detail: 'Sent to 3 of 4 browsers' });
    expect(webPush.deliver).toHaveBeenCalledWith('admins', expect.objectContaining({ url: '/monitors/7', severity: 'recovery' }));
  });

  it('fails for good where no browser delivery is wired', async () => {
    const error = (await rejectionOf(webpushProvider.send(aMessage(), { audience: 'all' }, contextFor(endpoint)))) as DeliveryError;
    expect(error.retryable).toBe(false);
  });
});

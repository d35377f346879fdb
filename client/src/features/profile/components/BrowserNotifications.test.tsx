import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { endpointHash } from '../webPush';
import { BrowserNotifications } from './BrowserNotifications';

const ENDPOINT = 'https://push.example.com/send/abc';
const SERVER_KEY = 'BOr2dCNIF9RsNGULTFy7K8QWZLxaSs2WaVT1bemumN5JkGqJ-dnG-x-Cvqdzn9sg5ogNuf0FrDgmY7_wrJnWKSI';

/** A browser with the Push API: a service worker registration whose push manager holds `subscribed` or nothing. */
function stubPushBrowser(permission: NotificationPermission, subscribed: boolean) {
  const subscription = {
    endpoint: ENDPOINT,
    options: { applicationServerKey: null },
    toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } }),
    unsubscribe: vi.fn(async () => true),
  };
  let current: typeof subscription | null = subscribed ? subscription : null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => (current = subscription)),
  };
  const registration = { pushManager };
  vi.stubGlobal('isSecureContext', true);
  vi.stubGlobal('PushManager', function PushManager() {});
  const notification = { permission, requestPermission: vi.fn(async () => 'granted') };
  vi.stubGlobal('Notification', notification);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: vi.fn(async () => registration),
      register: vi.fn(async () => registration),
      ready: Promise.resolve(registration),
    },
  });
  return { pushManager, subscription, notification };
}

describe('BrowserNotifications', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    signIn(MEMBER);
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('explains that a browser without the Push API cannot receive notifications', async () => {
    renderWithProviders(<BrowserNotifications />);
    expect(await screen.findByTestId('web-push-unsupported')).toHaveTextContent('This browser cannot receive push notifications');
    expect(screen.queryByTestId('web-push-enable')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('enables notifications: asks permission, subscribes with the server key and hands the subscription over', async () => {
    const browser = stubPushBrowser('default', false);
    const listed = { id: 4, created_at: '2025-03-01T00:00:00.000Z', user_agent: 'Chrome on Android', origin: 'https://push.example.com' };
    fetchMock
      .mockResolvedValueOnce(jsonResponse(200, { success: true, data: [] }))
      .mockResolvedValueOnce(jsonResponse(200, { success: true, data: { publicKey: SERVER_KEY } }))
      .mockResolvedValueOnce(jsonResponse(201, { success: true, message: 'Browser notifications enabled', data: { id: 4 } }))
      .mockResolvedValueOnce(jsonResponse(200, { success: true, data: [{ ...listed, endpoint_hash: await endpointHash(ENDPOINT) }] }));
    renderWithProviders(<BrowserNotifications />);

    expect(await screen.findByTestId('web-push-state')).toHaveTextContent('Not enabled in this browser');
    await userEvent.setup({ delay: null }).click(screen.getByTestId('web-push-enable'));

    expect(await screen.findByTestId('web-push-disable')).toBeInTheDocument();
    expect(screen.getByTestId('web-push-state')).toHaveTextContent('Enabled in this browser');
    expect(browser.notification.requestPermission).toHaveBeenCalled();
    const [options] = browser.pushManager.subscribe.mock.calls[0] as unknown as [PushSubscriptionOptionsInit];
    expect(options.userVisibleOnly).toBe(true);
    expect((options.applicationServerKey as Uint8Array).length).toBe(65);
    const [url, init] = fetchMock.mock.calls[2] as [string, RequestInit];
    expect([url, init.method]).toEqual(['/api/web-push/subscriptions', 'POST']);
    expect(JSON.parse(String(init.body))).toEqual({ endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } });
    expect(screen.getByTestId('web-push-browsers')).toHaveTextContent('Chrome on Android · push.example.com');
  });

  it('disables notifications: the server forgets this browser, then the browser unsubscribes', async () => {
    const browser = stubPushBrowser('granted', true);
    const entry = {
      id: 4,
      created_at: '2025-03-01T00:00:00.000Z',
      user_agent: null,
      origin: 'https://push.example.com',
      endpoint_hash: await endpointHash(ENDPOINT),
    };
    fetchMock
      .mockResolvedValueOnce(jsonResponse(200, { success: true, data: [entry] }))
      .mockResolvedValueOnce(jsonResponse(200, { success: true, message: 'Browser notifications disabled' }))
      .mockResolvedValueOnce(jsonResponse(200, { success: true, data: [] }));
    renderWithProviders(<BrowserNotifications />);

    await userEvent.setup({ delay: null }).click(await screen.findByTestId('web-push-disable'));

    expect(await screen.findByTestId('web-push-enable')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect([url, init.method, JSON.parse(String(init.body))]).toEqual(['/api/web-push/subscriptions', 'DELETE', { endpoint: ENDPOINT }]);
    expect(browser.subscription.unsubscribe).toHaveBeenCalled();
  });

  it('explains blocked notifications and offers no enable button that cannot work', async () => {
    stubPushBrowser('denied', false);
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { success: true, data: [] }));
    renderWithProviders(<BrowserNotifications />);

    expect(await screen.findByTestId('web-push-denied')).toHaveTextContent('Notifications are blocked for this site');
    expect(screen.getByTestId('web-push-enable')).toBeDisabled();
  });
});

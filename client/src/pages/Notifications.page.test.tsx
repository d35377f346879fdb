import { notifications } from '@mantine/notifications';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SECRET_MASK, type ChannelRequest, type NotificationSettingsRequest, type NotificationsResponse } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useNotificationsStore } from '../features/notifications/store';
import { monitorsPage, makeMonitor } from '../test/monitors';
import { makeChannel, makeHistoryItem, makeNotifications } from '../test/notifications';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import NotificationsPage from './Notifications.page';

const initial = useNotificationsStore.getState();
const GOOD_TOKEN = '123456789:AAFakeTokenForVigilTests_abcdefghijkl';

describe('NotificationsPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let data: NotificationsResponse;
  let settingsAnswer: (body: NotificationSettingsRequest) => Response;

  const calls = (url: string, method: string) =>
    fetchMock.mock.calls
      .filter(([called, init]) => String(called).startsWith(url) && (init as RequestInit).method === method)
      .map(([, init]) => JSON.parse(String((init as RequestInit).body ?? 'null')));

  beforeEach(() => {
    signIn(MEMBER);
    // Toasts live in a module-wide store: earlier tests' toasts would queue this test's behind Mantine's limit.
    act(() => {
      notifications.clean();
    });
    useNotificationsStore.setState(initial, true);
    data = makeNotifications({ channels: [makeChannel({ id: 1, name: 'Ops chat' })] });
    settingsAnswer = () => jsonResponse(200, { success: true, message: 'Notification settings saved' });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/notifications') return Promise.resolve(jsonResponse(200, data));
      if (url === '/api/notifications/settings') return Promise.resolve(settingsAnswer(JSON.parse(String(init.body))));
      if (url === '/api/notifications/channels' && init.method === 'POST')
        return Promise.resolve(jsonResponse(201, { success: true, message: 'Notification channel saved', data: { id: 9 } }));
      if (url.startsWith('/api/notifications/channels/') && init.method === 'DELETE')
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Notification channel deleted' }));
      if (url.startsWith('/api/notifications/history'))
        return Promise.resolve(
          jsonResponse(200, {
            success: true,
            items: [makeHistoryItem({ id: 3, subject: 'Vigil test message' })],
            total: 1,
            page: 1,
            pageSize: 20,
          }),
        );
      if (url.startsWith('/api/monitors?'))
        return Promise.resolve(
          jsonResponse(
            200,
            monitorsPage([
              makeMonitor({ id: 7, name: 'Checkout API' }),
              makeMonitor({
                id: 8,
                name: 'Mail',
                type: 'dns',
                url: 'dns://example.com?type=MX',
                hostname: 'example.com',
                dns_record_type: 'MX',
              }),
              makeMonitor({ id: 9, name: 'Backup', type: 'push', url: 'push://heartbeat', push_token: 'tok-secret' }),
            ]),
          ),
        );
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const switchOf = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

  it('shows global details only while enabled, and a threshold input only while its alert is on', async () => {
    renderWithProviders(<NotificationsPage />);
    await screen.findByTestId('global-monitors-enabled');
    expect(screen.queryByTestId('global-monitors-on-down')).not.toBeInTheDocument();

    await userEvent.click(switchOf('global-monitors-enabled'));
    expect(screen.getByTestId('global-monitors-on-down')).toBeChecked();

    await userEvent.click(switchOf('global-agents-enabled'));
    expect(screen.queryByTestId('global-agents-cpu-threshold')).not.toBeInTheDocument();
    await userEvent.click(switchOf('global-agents-on-cpu'));
    expect(screen.getByTestId('global-agents-cpu-threshold')).toHaveValue('90 %');
  });

  it('refuses a threshold above 100 before sending anything', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('global-agents-enabled'));
    await userEvent.click(switchOf('global-agents-on-disk'));
    const input = screen.getByTestId('global-agents-disk-threshold');
    await userEvent.clear(input);
    await userEvent.type(input, '150');
    expect(await screen.findAllByText('Thresholds must be whole numbers from 0 to 100')).not.toHaveLength(0);
    await userEvent.click(screen.getByTestId('notifications-save'));
    expect(calls('/api/notifications/settings', 'POST')).toEqual([]);
  });

  it('edits the host thresholds in their own units and sends them with the agent settings', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('global-agents-enabled'));
    await userEvent.click(switchOf('global-agents-on-temperature'));
    const temperature = screen.getByTestId('global-agents-temperature-threshold');
    expect(temperature).toHaveValue('80 °C');
    await userEvent.clear(temperature);
    await userEvent.type(temperature, '250');
    expect(await screen.findAllByText(/Host thresholds must be whole numbers/)).not.toHaveLength(0);
    await userEvent.clear(temperature);
    await userEvent.type(temperature, '85');
    // Load is per core: 250 % is a valid threshold.
    await userEvent.click(switchOf('global-agents-on-load'));
    const load = screen.getByTestId('global-agents-load-threshold');
    await userEvent.clear(load);
    await userEvent.type(load, '250');
    await userEvent.click(screen.getByTestId('notifications-save'));
    await vi.waitFor(() => expect(calls('/api/notifications/settings', 'POST')).toHaveLength(2));
    const agents = calls('/api/notifications/settings', 'POST').find((body) => body.target_type === 'global-agent');
    expect(agents).toMatchObject({
      on_load_threshold: true,
      load_threshold: 250,
      on_temperature_threshold: true,
      temperature_threshold: 85,
      on_disk_io_threshold: false,
      disk_io_threshold: 90,
      on_bandwidth_threshold: false,
      bandwidth_threshold: 102_400,
    });
  });

  it('switches the container and service alerts on per agent setting and sends them', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('global-agents-enabled'));
    expect(screen.getByText(/One alert per container once seen running/)).toBeInTheDocument();
    await userEvent.click(switchOf('global-agents-on-containerDown'));
    await userEvent.click(switchOf('global-agents-on-serviceFailed'));
    await userEvent.click(screen.getByTestId('notifications-save'));
    await vi.waitFor(() => expect(calls('/api/notifications/settings', 'POST')).toHaveLength(2));
    const agents = calls('/api/notifications/settings', 'POST').find((body) => body.target_type === 'global-agent');
    expect(agents).toMatchObject({ on_container_down: true, on_container_unhealthy: false, on_service_failed: true });
  });

  it('saves one call per target and says when only some succeeded', async () => {
    settingsAnswer = (body) =>
      body.target_type === 'global-agent'
        ? jsonResponse(400, { success: false, message: 'A selected notification channel does not exist' })
        : jsonResponse(200, { success: true });
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-save'));
    expect(await screen.findByText(/some notification settings failed to save/)).toBeInTheDocument();
    expect(
      calls('/api/notifications/settings', 'POST')
        .map((body) => body.target_type)
        .sort(),
    ).toEqual(['global-agent', 'global-monitor']);
  });

  it('sends the certificate expiry switch with the monitor settings', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('global-monitors-enabled'));
    expect(switchOf('global-monitors-on-certificate-expiry')).toBeChecked();
    expect(screen.getByText('Certificate and domain expiry')).toBeInTheDocument();
    await userEvent.click(switchOf('global-monitors-on-certificate-expiry'));
    await userEvent.click(screen.getByTestId('notifications-save'));
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(calls('/api/notifications/settings', 'POST').find((body) => body.target_type === 'global-monitor')).toMatchObject({
      enabled: true,
      on_certificate_expiry: false,
    });
  });

  it('says the settings were saved when every call succeeds', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-save'));
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
  });

  it('turning override on for a monitor turns it on and shows its options', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-tab-monitors'));
    const row = await screen.findByTestId('target-monitors-7');
    expect(within(row).getByText('Checkout API')).toBeInTheDocument();
    expect(row).toHaveTextContent('https://example.com/7');
    expect(screen.getByTestId('target-monitors-8')).toHaveTextContent('example.com MX');
    expect(screen.getByTestId('target-monitors-9')).toHaveTextContent('Heartbeat (push)');
    expect(screen.getByTestId('target-monitors-9')).not.toHaveTextContent('tok-secret');
    expect(within(row).queryByTestId('target-monitors-7-enabled')).not.toBeInTheDocument();

    await userEvent.click(within(row).getByTestId('target-monitors-7-override'));
    expect(within(row).getByTestId('target-monitors-7-enabled')).toBeChecked();
    expect(within(row).getByTestId('target-monitors-7-on-down')).toBeInTheDocument();
    expect(screen.getByTestId('notifications-unsaved')).toHaveTextContent('1 unsaved');

    await userEvent.click(screen.getByTestId('notifications-save'));
    await vi.waitFor(() =>
      expect(calls('/api/notifications/settings', 'POST').find((body) => body.target_type === 'monitor')).toMatchObject({
        target_id: 7,
        override_global: true,
        enabled: true,
      }),
    );
  });

  it('shows the channel rules in the dialog, sends nothing while they fail, and clears config and errors on a type change', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-tab-channels'));
    await userEvent.click(screen.getByTestId('channel-add'));
    // A new channel starts as email (SMTP), with its defaults filled in.
    expect(await screen.findByTestId('channel-field-port')).toHaveValue('587');
    await userEvent.click(screen.getByTestId('channel-type'));
    await userEvent.click(await screen.findByRole('option', { name: 'Telegram' }));
    await userEvent.click(await screen.findByTestId('channel-save'));
    expect(await screen.findByText('Channel name is required')).toBeInTheDocument();
    expect(screen.getByText('Bot Token is required')).toBeInTheDocument();

    await userEvent.type(screen.getByTestId('channel-name'), 'Ops');
    await userEvent.type(screen.getByTestId('channel-field-botToken'), 'not-a-token');
    await userEvent.type(screen.getByTestId('channel-field-chatId'), '-100123');
    await userEvent.click(screen.getByTestId('channel-save'));
    expect(await screen.findByText('Invalid Bot Token format')).toBeInTheDocument();
    expect(calls('/api/notifications/channels', 'POST')).toEqual([]);

    await userEvent.click(screen.getByTestId('channel-type'));
    await userEvent.click(await screen.findByRole('option', { name: 'Email (Resend)' }));
    expect(screen.queryByText('Invalid Bot Token format')).not.toBeInTheDocument();
    expect(screen.queryByTestId('channel-field-botToken')).not.toBeInTheDocument();
    expect(screen.getByTestId('channel-field-apiKey')).toHaveValue('');
    expect(screen.getByTestId('channel-name')).toHaveValue('Ops');

    await userEvent.click(screen.getByTestId('channel-type'));
    await userEvent.click(await screen.findByRole('option', { name: 'Telegram' }));
    await userEvent.click(screen.getByTestId('channel-field-botToken'));
    await userEvent.paste(GOOD_TOKEN);
    await userEvent.type(screen.getByTestId('channel-field-chatId'), '-100123');
    await userEvent.click(screen.getByTestId('channel-save'));
    await vi.waitFor(() => expect(calls('/api/notifications/channels', 'POST')).toHaveLength(1));
    const sent = calls('/api/notifications/channels', 'POST')[0] as ChannelRequest;
    expect(sent).toMatchObject({ name: 'Ops', type: 'telegram', enabled: true });
    expect(JSON.parse(sent.config as string)).toEqual({ botToken: GOOD_TOKEN, chatId: '-100123' });
  }, 20_000);

  it('keeps masked webhook credentials on edit, and marks the headers to type again when the server refuses them for a new URL', async () => {
    const url = `https://${SECRET_MASK}@hooks.example.com/hook?token=${SECRET_MASK}`;
    data = makeNotifications({
      channels: [
        makeChannel({ id: 2, name: 'Hook', type: 'webhook', config: JSON.stringify({ url, headers: { Authorization: SECRET_MASK } }) }),
      ],
    });
    const refusal = 'Re-enter the header values: saved ones are only sent to the URL they were saved with';
    const put = vi.fn(() =>
      jsonResponse(400, { success: false, message: refusal, code: 'notifications.headersReenter', field: 'headers' }),
    );
    const base = fetchMock.getMockImplementation() as (url: string, init: RequestInit) => Promise<Response>;
    fetchMock.mockImplementation((called: string, init: RequestInit) =>
      called === '/api/notifications/channels/2' && init.method === 'PUT' ? Promise.resolve(put()) : base(called, init),
    );
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-tab-channels'));
    await userEvent.click(await screen.findByTestId('channel-edit-2'));
    expect(await screen.findByTestId('channel-field-url')).toHaveValue(url);
    expect(screen.getByText(/hidden credentials \(••••••••\) are kept while the address stays the same/)).toBeInTheDocument();

    await userEvent.clear(screen.getByTestId('channel-field-url'));
    await userEvent.click(screen.getByTestId('channel-field-url'));
    await userEvent.paste('https://elsewhere.example.com/hook');
    await userEvent.click(screen.getByTestId('channel-save'));

    await vi.waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(await within(screen.getByTestId('channel-headers')).findByText(refusal)).toBeInTheDocument();
    expect(JSON.parse(calls('/api/notifications/channels/2', 'PUT')[0].config)).toEqual({
      url: 'https://elsewhere.example.com/hook',
      headers: { Authorization: SECRET_MASK },
    });
  }, 20_000);

  it('deletes a channel only after confirmation', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-tab-channels'));
    await userEvent.click(screen.getByTestId('channel-delete-1'));
    expect(calls('/api/notifications/channels/1', 'DELETE')).toHaveLength(0);
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    await vi.waitFor(() => expect(screen.queryByTestId('channel-row-1')).not.toBeInTheDocument());
    expect(
      fetchMock.mock.calls.some(([url, init]) => url === '/api/notifications/channels/1' && (init as RequestInit).method === 'DELETE'),
    ).toBe(true);
  });

  it('keeps default templates read-only: viewed or copied into a new custom template, never edited or deleted', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-tab-templates'));
    expect(screen.getByTestId('template-delete-1')).toBeDisabled();
    expect(screen.getByTestId('template-edit-1')).toBeDisabled();
    await userEvent.click(screen.getByTestId('template-view-1'));
    expect(await screen.findByTestId('template-view')).toHaveTextContent('{{name}} is down.');
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByTestId('template-copy-1'));
    expect(await screen.findByTestId('template-content')).toHaveValue('{{name}} is down.');
    expect(screen.getByTestId('template-name')).toHaveValue('Monitor down (copy)');
  });

  it('lists the delivery history with its attempts', async () => {
    renderWithProviders(<NotificationsPage />);
    await userEvent.click(await screen.findByTestId('notifications-tab-history'));
    const row = await screen.findByTestId('history-row-3');
    expect(row).toHaveAttribute('data-status', 'sent');
    expect(within(row).getByText('Vigil test message')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Show attempts' }));
    expect(screen.getByTestId('history-attempts-3')).toHaveTextContent('200');
  });
  describe('for a viewer, who reads everything and is offered no change', () => {
    beforeEach(() => {
      signIn(VIEWER);
      data = makeNotifications({ channels: [makeChannel({ id: 1, name: 'Ops chat' })] });
      data.data.settings.monitors = { ...data.data.settings.monitors, enabled: true, channels: [1] };
      data.data.templates.push({
        id: 5,
        name: 'Short down',
        type: 'monitor.down',
        language: 'en-US',
        subject: 'Down: {{name}}',
        content: '{{name}} went down.',
        is_default: false,
      });
    });

    it('shows the settings read-only, says why, and offers no save', async () => {
      renderWithProviders(<NotificationsPage />);
      expect(await screen.findByTestId('global-monitors-enabled')).toBeChecked();
      expect(screen.getByTestId('read-only-notice')).toBeInTheDocument();
      expect(screen.queryByTestId('notifications-save')).not.toBeInTheDocument();
      expect(switchOf('global-monitors-enabled')).toBeDisabled();
      expect(switchOf('global-monitors-on-down')).toBeDisabled();
      expect(switchOf('global-agents-enabled')).toBeDisabled();
      expect(screen.getByTestId('global-monitors-channels')).toBeDisabled();

      await userEvent.click(screen.getByTestId('notifications-tab-monitors'));
      const row = await screen.findByTestId('target-monitors-7');
      expect(within(row).getByTestId('target-monitors-7-override')).toBeDisabled();
    });

    it('lists channels and their template choice without add, edit, delete or save', async () => {
      renderWithProviders(<NotificationsPage />);
      await userEvent.click(await screen.findByTestId('notifications-tab-channels'));
      expect(screen.getByTestId('channel-row-1')).toHaveTextContent('Ops chat');
      expect(screen.queryByTestId('channel-add')).not.toBeInTheDocument();
      expect(screen.queryByTestId('channel-edit-1')).not.toBeInTheDocument();
      expect(screen.queryByTestId('channel-delete-1')).not.toBeInTheDocument();

      await userEvent.click(screen.getByTestId('channel-templates-1'));
      expect(await screen.findByTestId('channel-template-monitor.down')).toBeDisabled();
      expect(screen.queryByTestId('channel-templates-save')).not.toBeInTheDocument();
      expect(screen.getByTestId('channel-templates-close')).toHaveTextContent('Close');
    });

    it('views default and custom templates but cannot add, copy, edit or delete them', async () => {
      renderWithProviders(<NotificationsPage />);
      await userEvent.click(await screen.findByTestId('notifications-tab-templates'));
      expect(screen.queryByTestId('template-add')).not.toBeInTheDocument();
      expect(screen.queryByTestId('template-copy-1')).not.toBeInTheDocument();
      for (const id of [1, 5]) {
        expect(screen.queryByTestId(`template-edit-${id}`)).not.toBeInTheDocument();
        expect(screen.queryByTestId(`template-delete-${id}`)).not.toBeInTheDocument();
      }
      await userEvent.click(screen.getByTestId('template-view-5'));
      expect(await screen.findByTestId('template-view')).toHaveTextContent('{{name}} went down.');
    });
  });

  it('offers a user every change a viewer is not offered', async () => {
    renderWithProviders(<NotificationsPage />);
    expect(await screen.findByTestId('notifications-save')).toBeEnabled();
    expect(screen.queryByTestId('read-only-notice')).not.toBeInTheDocument();
    expect(switchOf('global-monitors-enabled')).toBeEnabled();
    await userEvent.click(screen.getByTestId('notifications-tab-channels'));
    expect(screen.getByTestId('channel-add')).toBeInTheDocument();
    expect(screen.getByTestId('channel-edit-1')).toBeEnabled();
    expect(screen.getByTestId('channel-delete-1')).toBeEnabled();
    await userEvent.click(screen.getByTestId('notifications-tab-templates'));
    expect(screen.getByTestId('template-add')).toBeInTheDocument();
    expect(screen.getByTestId('template-copy-1')).toBeInTheDocument();
  });
});

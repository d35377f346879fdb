import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAlertsStore } from '../features/alerts/store';
import { clearLiveCache } from '../live/cache';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { acknowledged, alertsPage, makeAlert } from '../test/alerts';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import AlertsPage from './Alerts.page';

const initial = useAlertsStore.getState();

describe('AlertsPage', () => {
  let alerts: AlertDto[];
  let ackAnswer: (id: number, body: { note?: string }) => Response;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    clearLiveCache();
    useAlertsStore.setState(initial, true);
    useRealtimeStore.setState({ status: 'connected' });
    signIn(MEMBER);
    alerts = [
      makeAlert({ id: 1, escalation_step: 1, reminders_sent: 2 }),
      acknowledged(makeAlert({ id: 2, target_kind: 'agent', target_id: 9, target_name: 'web-1', metric: 'cpu' }), 'Rebooting'),
    ];
    ackAnswer = (id, body) => {
      const alert = alerts.find((row) => row.id === id) as AlertDto;
      return jsonResponse(200, { success: true, alert: acknowledged(alert, body.note ?? null) });
    };
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      const ack = /^\/api\/alerts\/(\d+)\/ack$/.exec(url);
      if (ack) return Promise.resolve(ackAnswer(Number(ack[1]), JSON.parse(String(init.body)) as { note?: string }));
      const one = /^\/api\/alerts\/(\d+)$/.exec(url);
      if (one) return Promise.resolve(jsonResponse(200, { success: true, alert: alerts.find((row) => row.id === Number(one[1])) }));
      const state = new URL(url, 'http://localhost').searchParams.get('state');
      return Promise.resolve(jsonResponse(200, alertsPage(alerts.filter((alert) => !state || alert.state === state))));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const posts = () => fetchMock.mock.calls.filter(([, init]) => (init as RequestInit).method === 'POST');

  it('shows each alert’s target, what it is about, its state, follow-up, acknowledgement and messages', async () => {
    renderWithProviders(<AlertsPage />);
    const first = await screen.findByTestId('alert-card-1');
    expect(within(first).getByTestId('alert-target-1')).toHaveAttribute('href', '/monitors/5');
    expect(within(first).getByTestId('alert-state-1')).toHaveTextContent('Open');
    expect(within(first).getByTestId('alert-follow-up-1')).toHaveTextContent('Step 1 · 2 sent');
    expect(within(first).getByText('Down')).toBeInTheDocument();

    const second = screen.getByTestId('alert-card-2');
    expect(within(second).getByTestId('alert-target-2')).toHaveAttribute('href', '/agents/9');
    expect(within(second).getByTestId('alert-ack-info-2')).toHaveTextContent('Acknowledged by bob');
    expect(within(second).getByText('“Rebooting”')).toBeInTheDocument();
    expect(within(second).queryByTestId('alert-ack-2')).toBeNull();

    await userEvent.click(within(first).getByTestId('alert-messages-toggle-1'));
    const message = await within(first).findByTestId('alert-message-10');
    expect(message).toHaveTextContent('Ops chat');
    expect(message).toHaveTextContent('monitor.down');
    expect(message).toHaveTextContent('Sent');
  });

  it('filters by state on the server', async () => {
    renderWithProviders(<AlertsPage />);
    await screen.findByTestId('alert-card-2');
    await userEvent.click(screen.getByText('Open (1)'));
    await waitFor(() => expect(screen.queryByTestId('alert-card-2')).toBeNull());
    expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain('state=open');
    expect(screen.getByTestId('alert-card-1')).toBeInTheDocument();
  });

  it('acknowledges with a note and shows who acknowledged', async () => {
    renderWithProviders(<AlertsPage />);
    await userEvent.click(await screen.findByTestId('alert-ack-1'));
    await userEvent.type(await screen.findByTestId('alert-ack-note'), 'Looking');
    await userEvent.click(screen.getByTestId('alert-ack-confirm'));

    await waitFor(() => expect(screen.getByTestId('alert-state-1')).toHaveTextContent('Acknowledged'));
    expect(JSON.parse(String((posts()[0][1] as RequestInit).body))).toEqual({ note: 'Looking' });
    expect(screen.getByTestId('alert-ack-info-1')).toHaveTextContent('Acknowledged by bob');
    expect(screen.queryByTestId('alert-ack-1')).toBeNull();
  });

  it('shows the server’s message when the alert was acknowledged meanwhile, with the first acknowledgement', async () => {
    ackAnswer = () => {
      alerts[0] = acknowledged(alerts[0], 'First');
      return jsonResponse(409, { success: false, message: 'This alert was already acknowledged' });
    };
    renderWithProviders(<AlertsPage />);
    await userEvent.click(await screen.findByTestId('alert-ack-1'));
    await userEvent.click(await screen.findByTestId('alert-ack-confirm'));

    expect(await screen.findByTestId('alert-ack-error')).toHaveTextContent('This alert was already acknowledged');
    const dialog = screen.getByTestId('alert-ack-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('alert-ack-info-1')).toHaveTextContent('Acknowledged by bob'));
    expect(screen.getByTestId('alert-ack-confirm')).toBeDisabled();
  });

  it('offers a viewer no acknowledgement', async () => {
    signIn(VIEWER);
    renderWithProviders(<AlertsPage />);
    await screen.findByTestId('alert-card-1');
    expect(screen.queryByTestId('alert-ack-1')).toBeNull();
  });

  it('follows pushes: an acknowledgement elsewhere shows at once', async () => {
    renderWithProviders(<AlertsPage />);
    await screen.findByTestId('alert-ack-1');
    pushHandlers()['alert.changed']({ alert: acknowledged(alerts[0], 'From the phone') });
    await waitFor(() => expect(screen.getByTestId('alert-state-1')).toHaveTextContent('Acknowledged'));
    expect(screen.queryByTestId('alert-ack-1')).toBeNull();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StatusChange } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLiveCache } from '../../../live/cache';
import { acknowledged, alertsPage, makeAlert } from '../../../test/alerts';
import { makeHistoryItem } from '../../../test/notifications';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../../../test/render';
import { StatusFeed } from '../../dashboard/components/StatusFeed';
import { HistoryPanel } from '../../notifications/components/HistoryPanel';
import { useOpenAlertsStore } from '../store';
import { TargetAlerts } from './TargetAlerts';

const initialOpen = useOpenAlertsStore.getState();
const open = makeAlert({ id: 7, target_id: 5, target_name: 'Shop API' });

/** The same acknowledgement button on the dashboard feed, the notification history and a detail page. */
describe('acknowledging outside the alerts page', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    clearLiveCache();
    useOpenAlertsStore.setState(initialOpen, true);
    signIn(MEMBER);
    fetchMock = vi.fn((url: string) => {
      if (url === '/api/alerts/7/ack') return Promise.resolve(jsonResponse(200, { success: true, alert: acknowledged(open) }));
      if (url.startsWith('/api/notifications/history')) {
        const items = [
          makeHistoryItem({ id: 1, event: 'monitor.down', target_kind: 'monitor', target_id: 5, alert_id: 7 }),
          makeHistoryItem({ id: 2, event: 'monitor.down', target_kind: 'monitor', target_id: 6, alert_id: 3 }),
        ];
        return Promise.resolve(jsonResponse(200, { success: true, items, total: 2, page: 1, pageSize: 20 }));
      }
      return Promise.resolve(jsonResponse(200, alertsPage([open])));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const change = (overrides: Partial<StatusChange>): StatusChange => ({
    kind: 'monitor',
    id: 5,
    name: 'Shop API',
    previous: 'up',
    status: 'down',
    at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  });

  it('offers the open alert on the newest feed entry of its monitor only, and acknowledges it', async () => {
    renderWithProviders(
      <StatusFeed changes={[change({}), change({ status: 'up', previous: 'down', at: '2025-03-01T09:00:00.000Z' }), change({ id: 6 })]} />,
    );
    const entries = screen.getAllByTestId('dashboard-feed-entry');
    const button = await within(entries[0]).findByTestId('alert-ack-7');
    expect(within(entries[1]).queryByTestId('alert-ack-7')).toBeNull();
    expect(within(entries[2]).queryByRole('button')).toBeNull();

    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId('alert-ack-confirm'));
    await waitFor(() => expect(screen.queryByTestId('alert-ack-7')).toBeNull());
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/alerts/7/ack')).toBe(true);
  });

  it('offers the acknowledgement on history rows of an open alert', async () => {
    renderWithProviders(<HistoryPanel />);
    const row = await screen.findByTestId('history-row-1');
    expect(await within(row).findByTestId('alert-ack-7')).toBeInTheDocument();
    expect(within(screen.getByTestId('history-row-2')).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
  });

  it('shows a detail page’s open alert with its button, read for that monitor', async () => {
    renderWithProviders(<TargetAlerts kind="monitor" id={5} />);
    const alert = await screen.findByTestId('target-alert-7');
    expect(alert).toHaveTextContent('Down alert, Open');
    expect(within(alert).getByTestId('alert-ack-7')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/alerts?page=1&pageSize=20&state=open&kind=monitor&targetId=5');
  });

  it('reads nothing for a viewer’s feed, who cannot acknowledge', async () => {
    signIn(VIEWER);
    renderWithProviders(<StatusFeed changes={[change({})]} />);
    await screen.findAllByTestId('dashboard-feed-entry');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByTestId('alert-ack-7')).toBeNull();
  });
});

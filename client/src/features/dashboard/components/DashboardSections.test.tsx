import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useRealtimeStore } from '../../../realtime/store';
import { makeCheck, makeMonitor, monitorsPage } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { DASHBOARD_MONITORS, useDashboardMonitorsStore } from '../../monitors/listStore';
import { DashboardSections } from './DashboardSections';

describe('dashboard monitor sections', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const first = [makeMonitor({ id: 1, status: 'up' }), makeMonitor({ id: 2, status: 'down' }), makeMonitor({ id: 3, status: 'up' })];

  beforeEach(() => {
    signIn(MEMBER);
    useRealtimeStore.setState({ status: 'connected' });
    useDashboardMonitorsStore.setState({ monitors: [], status: 'idle', error: null });
    fetchMock = vi.fn(() =>
      Promise.resolve(jsonResponse(200, { ...monitorsPage(first), total: 12, counts: { up: 8, down: 2, pending: 1, paused: 1, total: 12 } })),
    );
    vi.stubGlobal('fetch', fetchMock);
  });

  it('shows up, down and total over every monitor and the first three as cards', async () => {
    renderWithProviders(<DashboardSections />);
    expect(await screen.findByTestId('dashboard-monitor-summary-up')).toHaveTextContent('8');
    expect(screen.getByTestId('dashboard-monitor-summary-down')).toHaveTextContent('2');
    expect(screen.getByTestId('dashboard-monitor-summary-total')).toHaveTextContent('12');
    expect(fetchMock.mock.calls[0][0]).toBe(`/api/monitors?page=1&pageSize=${DASHBOARD_MONITORS}`);
    expect(within(screen.getByTestId('dashboard-monitors')).getAllByTestId(/^dashboard-monitor-\d+$/)).toHaveLength(3);
    expect(screen.getByTestId('dashboard-monitors-link')).toHaveAttribute('href', '/monitors');
  });

  it('follows transitions live', async () => {
    renderWithProviders(<DashboardSections />);
    await screen.findByTestId('dashboard-monitor-summary');
    act(() =>
      useDashboardMonitorsStore
        .getState()
        .applyStatusChanged({ monitorId: 1, name: 'Monitor 1', previous: 'up', status: 'pending', check: makeCheck({ status: 'down' }), changed_at: '' }),
    );
    act(() =>
      useDashboardMonitorsStore
        .getState()
        .applyStatusChanged({ monitorId: 40, name: 'Monitor 40', previous: 'pending', status: 'down', check: makeCheck({ status: 'down' }), changed_at: '' }),
    );
    expect(screen.getByTestId('dashboard-monitor-summary-up')).toHaveTextContent('7');
    expect(screen.getByTestId('dashboard-monitor-summary-down')).toHaveTextContent('3');
    expect(screen.getByTestId('monitor-status-1')).toHaveAttribute('data-status', 'pending');
  });

  it('offers to add the first monitor when there are none', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, monitorsPage([])));
    renderWithProviders(<DashboardSections />);
    expect(await screen.findByText('No monitors yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add monitor' })).toHaveAttribute('href', '/monitors/create');
  });

  it('shows the error with a button that reloads the page', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { success: false, message: '' }));
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderWithProviders(<DashboardSections />);
    const error = await screen.findByTestId('error-state');
    expect(error).toHaveTextContent('Failed to load monitor data');
    within(error).getByRole('button', { name: 'Reload page' }).click();
    expect(reload).toHaveBeenCalled();
  });
});

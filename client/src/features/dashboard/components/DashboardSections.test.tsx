import { act, screen, within } from '@testing-library/react';
import { POLL_INTERVAL_MS } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDashboardAgentsStore } from '../../agents/listStore';
import { useRealtimeStore } from '../../../realtime/store';
import { pushHandlers } from '../../../realtime/handlers';
import { agentsPage, makeAgent } from '../../../test/agents';
import { makeCheck, makeMonitor, monitorsPage } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../../../test/render';
import { makeChange, makeDashboardSummary } from '../../../test/status';
import { DASHBOARD_MONITORS, useDashboardMonitorsStore } from '../../monitors/listStore';
import { SETTLE_DELAY_MS, useDashboardStore } from '../store';
import { DashboardSections } from './DashboardSections';

describe('dashboard', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let summary = makeDashboardSummary();
  const monitors = [makeMonitor({ id: 1, status: 'up' }), makeMonitor({ id: 2, status: 'down' }), makeMonitor({ id: 3, status: 'up' })];
  const agents = [makeAgent({ id: 1 }), makeAgent({ id: 2, status: 'inactive' }), makeAgent({ id: 3 })];
  let failing: string | null = null;

  beforeEach(() => {
    signIn(MEMBER);
    failing = null;
    summary = makeDashboardSummary({
      recent_changes: [
        makeChange({ kind: 'agent', id: 2, name: 'db-1', previous: 'active', status: 'inactive', at: '2025-03-01T09:00:00.000Z' }),
      ],
    });
    useRealtimeStore.setState({ status: 'connected' });
    useDashboardStore.setState({ summary: null, status: 'idle', error: null });
    useDashboardMonitorsStore.setState({ rows: [], status: 'idle', error: null });
    useDashboardAgentsStore.setState({ rows: [], status: 'idle', error: null });
    fetchMock = vi.fn((url: string) => {
      if (failing && url.startsWith(failing)) return Promise.resolve(jsonResponse(500, { success: false, message: '' }));
      if (url === '/api/dashboard') return Promise.resolve(jsonResponse(200, { success: true, dashboard: summary }));
      if (url.startsWith('/api/monitors?')) return Promise.resolve(jsonResponse(200, monitorsPage(monitors)));
      if (url.startsWith('/api/agents?')) return Promise.resolve(jsonResponse(200, agentsPage(agents)));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.useRealTimers());

  const dashboardReads = () => fetchMock.mock.calls.filter(([url]) => url === '/api/dashboard').length;

  it('shows monitor and agent counts, 24 h figures, the first three of each as cards, and the feed', async () => {
    renderWithProviders(<DashboardSections />);
    expect(await screen.findByTestId('dashboard-monitor-summary-up')).toHaveTextContent('8');
    expect(screen.getByTestId('dashboard-monitor-summary-down')).toHaveTextContent('2');
    expect(screen.getByTestId('dashboard-monitor-summary-total')).toHaveTextContent('12');
    expect(screen.getByTestId('dashboard-agent-summary-active')).toHaveTextContent('3');
    expect(screen.getByTestId('dashboard-agent-summary-inactive')).toHaveTextContent('1');
    expect(screen.getByTestId('dashboard-agent-summary-total')).toHaveTextContent('4');
    expect(screen.getByTestId('dashboard-stats-uptime')).toHaveTextContent('99.25%');
    expect(screen.getByTestId('dashboard-stats-response')).toHaveTextContent('143 ms');

    expect(await within(screen.getByTestId('dashboard-monitors')).findAllByTestId(/^dashboard-monitor-\d+$/)).toHaveLength(3);
    expect(await within(screen.getByTestId('dashboard-agents')).findAllByTestId(/^dashboard-agent-\d+$/)).toHaveLength(3);
    expect(screen.getByTestId('dashboard-monitors-link')).toHaveAttribute('href', '/monitors');
    expect(screen.getByTestId('dashboard-agents-link')).toHaveAttribute('href', '/agents');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain(`/api/monitors?page=1&pageSize=${DASHBOARD_MONITORS}`);
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/agents?page=1&pageSize=3');

    const entry = within(screen.getByTestId('dashboard-feed')).getByTestId('dashboard-feed-entry');
    expect(entry).toHaveTextContent('db-1');
    expect(entry).toHaveTextContent('Online');
    expect(entry).toHaveTextContent('Offline');
    expect(within(entry).getByRole('link')).toHaveAttribute('href', '/agents/2');
  });

  it('shows dashes for the 24 h figures before any check', async () => {
    summary = makeDashboardSummary({ uptime: null, avg_response_time: null });
    renderWithProviders(<DashboardSections />);
    expect(await screen.findByTestId('dashboard-stats-uptime')).toHaveTextContent('-');
    expect(screen.getByTestId('dashboard-stats-response')).toHaveTextContent('-');
  });

  it('changes counts and the feed live from pushes, then settles them with one read', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithProviders(<DashboardSections />);
    await screen.findByTestId('dashboard-monitor-summary');
    await screen.findByTestId('dashboard-monitor-1');
    const push = pushHandlers();
    act(() =>
      push['monitor.status_changed']({
        monitorId: 1,
        name: 'Monitor 1',
        previous: 'up',
        status: 'down',
        check: makeCheck({ status: 'down' }),
        changed_at: '2025-03-01T10:00:00.000Z',
      }),
    );

    expect(screen.getByTestId('dashboard-monitor-summary-up')).toHaveTextContent('7');
    expect(screen.getByTestId('dashboard-monitor-summary-down')).toHaveTextContent('3');
    expect(screen.getByTestId('monitor-status-1')).toHaveAttribute('data-status', 'down');
    const entries = screen.getAllByTestId('dashboard-feed-entry');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent('Monitor 1');
    expect(entries[0]).toHaveAttribute('data-status', 'down');

    act(() =>
      push['agent.status_changed']({
        agentId: 1,
        name: 'Agent 1',
        previous: 'active',
        status: 'inactive',
        changed_at: '2025-03-01T10:01:00.000Z',
      }),
    );
    expect(screen.getByTestId('dashboard-agent-summary-inactive')).toHaveTextContent('2');
    expect(screen.getByTestId('agent-status-1')).toHaveAttribute('data-status', 'inactive');

    expect(dashboardReads()).toBe(1);
    summary = makeDashboardSummary({
      monitors: { up: 7, down: 3, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 1, total: 12 },
    });
    await act(() => vi.advanceTimersByTimeAsync(SETTLE_DELAY_MS));
    expect(dashboardReads()).toBe(2);
  });

  it('reads everything every 60 s only while the socket is down', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithProviders(<DashboardSections />);
    await screen.findByTestId('dashboard-monitor-summary');
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 2));
    expect(dashboardReads()).toBe(1);
    act(() => useRealtimeStore.setState({ status: 'offline' }));
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(dashboardReads()).toBe(2);
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/agents?'))).toHaveLength(2);
  });

  it('offers to add the first monitor and agent when there are none', async () => {
    fetchMock.mockImplementation((url: string) =>
      Promise.resolve(
        url === '/api/dashboard'
          ? jsonResponse(200, { success: true, dashboard: makeDashboardSummary({ recent_changes: [] }) })
          : url.startsWith('/api/monitors?')
            ? jsonResponse(200, monitorsPage([]))
            : jsonResponse(200, agentsPage([])),
      ),
    );
    renderWithProviders(<DashboardSections />);
    expect(await screen.findByText('No monitors yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add monitor' })).toHaveAttribute('href', '/monitors/create');
    expect(await screen.findByText('No agents yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add agent' })).toHaveAttribute('href', '/agents/create');
    expect(screen.getByTestId('dashboard-feed')).toHaveTextContent('No status changes yet');
  });

  it('offers a viewer no add buttons on an empty dashboard', async () => {
    signIn(VIEWER);
    fetchMock.mockImplementation((url: string) =>
      Promise.resolve(
        url === '/api/dashboard'
          ? jsonResponse(200, { success: true, dashboard: makeDashboardSummary({ recent_changes: [] }) })
          : url.startsWith('/api/monitors?')
            ? jsonResponse(200, monitorsPage([]))
            : jsonResponse(200, agentsPage([])),
      ),
    );
    renderWithProviders(<DashboardSections />);
    expect(await screen.findByText('No monitors yet')).toBeInTheDocument();
    expect(await screen.findByText('No agents yet')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add monitor' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add agent' })).not.toBeInTheDocument();
  });

  it.each([
    ['/api/dashboard', 'Failed to load the dashboard'],
    ['/api/monitors', 'Failed to load monitor data'],
    ['/api/agents', 'Failed to load agent data'],
  ])('shows the error of %s with a button that reloads the page', async (path, message) => {
    failing = path;
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderWithProviders(<DashboardSections />);
    const error = await screen.findByTestId('error-state');
    expect(error).toHaveTextContent(message);
    within(error).getByRole('button', { name: 'Reload page' }).click();
    expect(reload).toHaveBeenCalled();
  });
});

import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MonitorDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useMonitorsStore } from '../features/monitors/listStore';
import { pushHandlers } from '../realtime/handlers';
import { MONITOR_VIEW_STORAGE_KEY } from '../features/monitors/useMonitorView';
import { useRealtimeStore } from '../realtime/store';
import { makeCheck, makeMonitor, monitorsPage } from '../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import MonitorsPage from './Monitors.page';

describe('MonitorsPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let monitors: MonitorDto[];
  let deleteAnswer: Response | null;
  const shop = makeMonitor({ id: 1, name: 'Shop', url: 'https://shop.example.com', status: 'up', response_time: 87.4, uptime: 100.3 });
  const blog = makeMonitor({ id: 2, name: 'Blog', status: 'down', response_time: null, uptime: 42.126 });
  const docs = makeMonitor({ id: 3, name: 'Docs', active: false });

  beforeEach(() => {
    signIn(MEMBER);
    useRealtimeStore.setState({ status: 'connected' });
    useMonitorsStore.setState({
      rows: [],
      total: 0,
      status: 'idle',
      error: null,
      query: { page: 1, pageSize: 50, filter: 'all', type: 'all', search: '' },
    });
    monitors = [shop, blog, docs];
    deleteAnswer = null;
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (init.method === 'DELETE')
        return Promise.resolve(deleteAnswer ?? jsonResponse(200, { success: true, message: 'Monitor deleted' }));
      const query = new URL(url, 'http://localhost').searchParams;
      const filter = query.get('filter');
      const type = query.get('type');
      const shown = monitors
        .filter((monitor) => (filter === 'paused' ? !monitor.active : filter === 'active' ? monitor.active : true))
        .filter((monitor) => !type || monitor.type === type);
      return Promise.resolve(jsonResponse(200, { ...monitorsPage(monitors), monitors: shown, total: shown.length }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const listCalls = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/monitors?'));

  it('lists name, type and target, status, response time in ms and clamped uptime with two decimals', async () => {
    renderWithProviders(<MonitorsPage />);
    const row = await screen.findByTestId('monitor-row-1');
    const cells = within(row).getAllByRole('cell');
    expect(cells.slice(0, 5).map((cell) => cell.textContent)).toEqual(['Shop', 'HTTPhttps://shop.example.com', 'Up', '87', '100.00']);
    expect(within(screen.getByTestId('monitor-row-2')).getAllByRole('cell')[3]).toHaveTextContent(/^-$/);
    expect(within(screen.getByTestId('monitor-row-2')).getAllByRole('cell')[4]).toHaveTextContent('42.13');
    expect(screen.getByTestId('monitor-status-3')).toHaveAttribute('data-status', 'paused');
    expect(screen.getByTestId('monitor-edit-1')).toHaveAttribute('href', '/monitors/edit/1');
    expect(screen.getByTestId('monitor-view-1')).toHaveAttribute('href', '/monitors/1');
    expect(screen.getByTestId('monitor-create')).toHaveAttribute('href', '/monitors/create');
  });

  it('shows each type with its badge and target: host:port, the DNS record, the heartbeat', async () => {
    monitors = [
      shop,
      makeMonitor({ id: 4, name: 'DB port', type: 'tcp', url: 'tcp://db.internal:5432', hostname: 'db.internal', port: 5432 }),
      makeMonitor({ id: 5, name: 'Mail', type: 'dns', url: 'dns://example.com?type=MX', hostname: 'example.com', dns_record_type: 'MX' }),
      makeMonitor({ id: 6, name: 'Backup', type: 'push', url: 'push://heartbeat', push_token: 'secret-token' }),
    ];
    renderWithProviders(<MonitorsPage />);
    await screen.findByTestId('monitor-row-4');
    expect(screen.getByTestId('monitor-type-4')).toHaveAttribute('data-type', 'tcp');
    expect(screen.getByTestId('monitor-target-4')).toHaveTextContent(/^db\.internal:5432$/);
    expect(screen.getByTestId('monitor-target-5')).toHaveTextContent(/^example\.com MX$/);
    expect(screen.getByTestId('monitor-target-6')).toHaveTextContent(/^Heartbeat \(push\)$/);
    expect(screen.getByTestId('monitor-row-6')).not.toHaveTextContent('secret-token');
  });

  it('asks the server for one type with type=, and back for all', async () => {
    monitors = [shop, makeMonitor({ id: 4, name: 'DB port', type: 'tcp', url: 'tcp://db:5432', hostname: 'db', port: 5432 })];
    renderWithProviders(<MonitorsPage />);
    await screen.findByTestId('monitor-row-1');
    await userEvent.selectOptions(screen.getByTestId('monitor-type-filter'), 'tcp');
    await vi.waitFor(() => expect(screen.queryByTestId('monitor-row-1')).not.toBeInTheDocument());
    expect(screen.getByTestId('monitor-row-4')).toBeInTheDocument();
    expect(listCalls().at(-1)).toBe('/api/monitors?page=1&pageSize=50&type=tcp');

    await userEvent.selectOptions(screen.getByTestId('monitor-type-filter'), 'all');
    await screen.findByTestId('monitor-row-1');
    expect(listCalls().at(-1)).toBe('/api/monitors?page=1&pageSize=50');
  });

  it('colours the certificate days at the thresholds', async () => {
    const certificate = (days: number) => ({
      subject: 'CN=x',
      issuer: 'CN=ca',
      expires_at: '2026-01-01T00:00:00.000Z',
      days_remaining: days,
    });
    monitors = [
      makeMonitor({ id: 7, certificate: certificate(5), cert_expiry_days: [21, 14, 7] }),
      makeMonitor({ id: 8, certificate: certificate(20), cert_expiry_days: [21, 14, 7] }),
      makeMonitor({ id: 9, certificate: certificate(90), cert_expiry_days: [21, 14, 7] }),
      makeMonitor({ id: 10, type: 'tcp', url: 'tcp://db:5432', hostname: 'db', port: 5432 }),
    ];
    renderWithProviders(<MonitorsPage />);
    await screen.findByTestId('monitor-row-7');
    expect(screen.getByTestId('monitor-certificate-7')).toHaveAttribute('data-color', 'red');
    expect(screen.getByTestId('monitor-certificate-7')).toHaveTextContent('Cert 5 d');
    expect(screen.getByTestId('monitor-certificate-8')).toHaveAttribute('data-color', 'orange');
    expect(screen.getByTestId('monitor-certificate-9')).toHaveAttribute('data-color', 'green');
    expect(screen.queryByTestId('monitor-certificate-10')).not.toBeInTheDocument();
  });

  it('asks the server for one page, then for the paused or active ones when filtered', async () => {
    renderWithProviders(<MonitorsPage />);
    await screen.findByTestId('monitor-row-1');
    expect(listCalls()).toEqual(['/api/monitors?page=1&pageSize=50']);
    const filter = screen.getByTestId('monitor-filter');
    expect(filter).toHaveTextContent('All (3)');
    expect(filter).toHaveTextContent('Active (2)');
    expect(filter).toHaveTextContent('Paused (1)');

    await userEvent.click(within(filter).getByText('Paused (1)'));
    await vi.waitFor(() => expect(screen.queryByTestId('monitor-row-1')).not.toBeInTheDocument());
    expect(screen.getByTestId('monitor-row-3')).toBeInTheDocument();
    expect(listCalls().at(-1)).toBe('/api/monitors?page=1&pageSize=50&filter=paused');

    await userEvent.click(within(filter).getByText('Active (2)'));
    await vi.waitFor(() => expect(screen.queryByTestId('monitor-row-3')).not.toBeInTheDocument());
    expect(screen.getByTestId('monitor-row-2')).toBeInTheDocument();
  });

  it('remembers the grid view for the next visit', async () => {
    const first = renderWithProviders(<MonitorsPage />);
    await screen.findByTestId('monitors-table');
    await userEvent.click(within(screen.getByTestId('view-toggle')).getByTitle('Grid view'));
    expect(await screen.findByTestId('monitors-grid')).toBeInTheDocument();
    expect(within(screen.getByTestId('monitor-row-1')).getByTestId('uptime-bar')).toBeInTheDocument();
    expect(localStorage.getItem(MONITOR_VIEW_STORAGE_KEY)).toBe('grid');
    first.unmount();

    renderWithProviders(<MonitorsPage />);
    expect(await screen.findByTestId('monitors-grid')).toBeInTheDocument();
  });

  it('deletes only after a confirmation that says it cannot be undone', async () => {
    renderWithProviders(<MonitorsPage />);
    await userEvent.click(await screen.findByTestId('monitor-delete-2'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete monitor "Blog"? This cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit).method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByTestId('monitor-delete-2'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    await vi.waitFor(() => expect(screen.queryByTestId('monitor-row-2')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.find(([, init]) => (init as RequestInit).method === 'DELETE')?.[0]).toBe('/api/monitors/2');
  });

  it('shows a failed delete in an alert and keeps the row', async () => {
    deleteAnswer = jsonResponse(404, { success: false, message: 'Monitor does not exist', code: 'monitors.notFound' });
    renderWithProviders(<MonitorsPage />);
    await userEvent.click(await screen.findByTestId('monitor-delete-1'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    const alert = await screen.findByTestId('delete-error');
    expect(alert).toHaveTextContent('Failed to delete monitor');
    expect(alert).toHaveTextContent('Monitor does not exist');
    expect(screen.getByTestId('monitor-row-1')).toBeInTheDocument();
  });

  it('offers to add a monitor when there are none', async () => {
    monitors = [];
    renderWithProviders(<MonitorsPage />);
    const empty = await screen.findByTestId('monitors-empty');
    expect(empty).toHaveTextContent('No monitors yet');
    expect(within(empty).getByRole('link', { name: 'Add monitor' })).toHaveAttribute('href', '/monitors/create');
  });

  it('shows the loading error with a retry', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(500, { success: false, message: '' })));
    renderWithProviders(<MonitorsPage />);
    const error = await screen.findByTestId('error-state');
    expect(error).toHaveTextContent('Failed to load monitor data');
    expect(within(error).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('follows pushed checks without a reload', async () => {
    renderWithProviders(<MonitorsPage />);
    await screen.findByTestId('monitor-row-1');
    const check = makeCheck({ id: 50, status: 'down', checked_at: '2025-03-01T11:00:00.000Z' });
    act(() => {
      pushHandlers()['monitor.checked']({
        monitorId: 1,
        check,
        status: 'pending',
        response_time: 12,
        uptime: 99,
        last_checked: check.checked_at,
      });
    });
    expect(screen.getByTestId('monitor-status-1')).toHaveAttribute('data-status', 'pending');
    expect(within(screen.getByTestId('monitor-row-1')).getAllByRole('cell')[3]).toHaveTextContent('12');
  });
});

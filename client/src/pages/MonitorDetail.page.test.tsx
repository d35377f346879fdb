import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CheckDto, MonitorDto } from '@vigil/proto';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useMonitorDetailStore } from '../features/monitors/detailStore';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { makeCheck, makeMonitor } from '../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import MonitorDetailPage, { DELETE_REDIRECT_MS } from './MonitorDetail.page';

const point = (status: 'up' | 'down', minute: number) => ({
  status,
  timestamp: `2025-03-01T09:${String(minute).padStart(2, '0')}:00.000Z`,
});

function renderDetail(route = '/monitors/4') {
  return renderWithProviders(
    <Routes>
      <Route path="/monitors/:id" element={<MonitorDetailPage />} />
      <Route path="/monitors" element={<div>list</div>} />
    </Routes>,
    { route },
  );
}

describe('MonitorDetailPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let monitor: MonitorDto;
  let checks: CheckDto[];
  let checkAnswer: () => Response;

  beforeEach(() => {
    signIn(MEMBER);
    useRealtimeStore.setState({ status: 'connected' });
    useMonitorDetailStore.setState({ id: null, monitor: null, status: 'idle', error: null, removed: false });
    monitor = makeMonitor({
      id: 4,
      name: 'Payments API',
      expected_status: 2,
      interval: 120,
      timeout: 15,
      method: 'POST',
      headers: { 'X-Token': 'abc' },
      body: '{"ping":true}',
      history: Array.from({ length: 45 }, (_, minute) => point(minute % 2 ? 'down' : 'up', minute)),
    });
    checks = [makeCheck({ id: 2, status: 'down', status_code: 500, error: 'Unexpected status 500 (expected 2xx)' }), makeCheck({ id: 1 })];
    const checkResult = makeCheck({ id: 3, status: 'down', status_code: null, response_time: null, error: 'Connection refused' });
    checkAnswer = () =>
      jsonResponse(200, {
        success: true,
        message: 'Monitor check completed',
        check: checkResult,
        monitor: { ...monitor, status: 'pending', checks: [checkResult] },
      });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/monitors/4' && init.method === 'DELETE')
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Monitor deleted' }));
      if (url === '/api/monitors/4') return Promise.resolve(jsonResponse(200, { success: true, monitor }));
      if (url === '/api/monitors/4/check') return Promise.resolve(checkAnswer());
      if (url === '/api/monitors/4/pause')
        return Promise.resolve(jsonResponse(200, { success: true, monitor: { ...monitor, active: false, history: [] } }));
      if (url.startsWith('/api/monitors/4/stats')) {
        return Promise.resolve(
          jsonResponse(200, {
            success: true,
            stats: { range: '24h', uptime: 50, checks: 0, avg_response_time: null, p95_response_time: null, series: [] },
          }),
        );
      }
      if (url.startsWith('/api/monitors/4/checks'))
        return Promise.resolve(jsonResponse(200, { success: true, checks, total: checks.length, page: 1, pageSize: 20 }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Monitor does not exist', code: 'monitors.notFound' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('shows the name, status badge and the overview with the last 40 points', async () => {
    renderDetail();
    expect(await screen.findByTestId('monitor-detail-name')).toHaveTextContent('Payments API');
    expect(screen.getByTestId('monitor-detail-status')).toHaveAttribute('data-status', 'up');
    const dots = screen.getByTestId('uptime-bar').children;
    expect(dots).toHaveLength(40);
    // The last 40 of 45 points: the first shown is minute 5 (down), the last minute 44 (up).
    expect(dots[0]).toHaveAttribute('data-status', 'down');
    expect(dots[39]).toHaveAttribute('data-status', 'up');
    expect(screen.getByTestId('monitor-expected-status')).toHaveTextContent('2xx');
    expect(screen.getByText('120 s')).toBeInTheDocument();
    expect(screen.getByText('15 s')).toBeInTheDocument();
    expect(await screen.findByText('No timed checks in this period yet')).toBeInTheDocument();
  });

  it("shows a push monitor's URL with examples, and its target as the heartbeat", async () => {
    monitor = { ...monitor, type: 'push', url: 'push://heartbeat', push_token: 'tok-123', interval: 300 };
    renderDetail();
    expect(await screen.findByTestId('push-url')).toHaveTextContent(/\/api\/push\/tok-123$/);
    expect(screen.getByTestId('push-example-curl')).toHaveTextContent('tok-123?status=up');
    expect(screen.getByTestId('monitor-detail-type')).toHaveAttribute('data-type', 'push');
    expect(screen.getByTestId('monitor-detail-target')).toHaveTextContent('Heartbeat (push)');
    expect(screen.queryByTestId('monitor-expected-status')).not.toBeInTheDocument();
  });

  it('shows a TLS monitor with host:port and its certificate days coloured at its thresholds', async () => {
    monitor = {
      ...monitor,
      type: 'tls',
      url: 'tls://example.com:443',
      hostname: 'example.com',
      port: 443,
      cert_expiry_days: [30, 10],
      certificate: { subject: 'CN=example.com', issuer: 'CN=CA', expires_at: '2026-12-14T00:00:00.000Z', days_remaining: 20 },
    };
    renderDetail();
    expect(await screen.findByTestId('monitor-detail-target')).toHaveTextContent(/^example\.com:443$/);
    const certificate = screen.getByTestId('monitor-detail-certificate');
    expect(certificate).toHaveTextContent('Cert 20 d');
    expect(certificate).toHaveTextContent('CN=example.com, issued by CN=CA');
    expect(certificate.querySelector('[data-color]')).toHaveAttribute('data-color', 'orange');
    expect(screen.queryByTestId('push-url-panel')).not.toBeInTheDocument();
  });

  it("says 'Not checked' before the first check", async () => {
    monitor = { ...monitor, last_checked: null, response_time: null };
    renderDetail();
    expect(await screen.findByTestId('monitor-last-check')).toHaveTextContent('Not checked');
  });

  it('runs a check now and shows its result in a toast and the badge', async () => {
    renderDetail();
    await userEvent.click(await screen.findByTestId('monitor-check-now'));
    expect(await screen.findByText('Monitor check completed')).toBeInTheDocument();
    expect(screen.getByText('Down: Connection refused')).toBeInTheDocument();
    expect(screen.getByTestId('monitor-detail-status')).toHaveAttribute('data-status', 'pending');
  });

  it('shows a failed check as a red toast', async () => {
    checkAnswer = () => jsonResponse(500, { success: false, message: '' });
    renderDetail();
    await userEvent.click(await screen.findByTestId('monitor-check-now'));
    expect(await screen.findAllByText('Check failed')).not.toHaveLength(0);
  });

  it('pauses, after which it shows as paused with a resume button', async () => {
    renderDetail();
    await userEvent.click(await screen.findByTestId('monitor-pause'));
    expect(await screen.findByTestId('monitor-resume')).toBeInTheDocument();
    expect(screen.getByTestId('monitor-detail-status')).toHaveAttribute('data-status', 'paused');
    expect(screen.getByText('Monitor paused')).toBeInTheDocument();
    // The pause answer carries a short history; the 40-point bar stays.
    expect(screen.getByTestId('uptime-bar').querySelectorAll('[data-status="empty"]')).toHaveLength(0);
  });

  it('deletes after confirmation, shows a toast and goes to the list 1.5 s later', async () => {
    renderDetail();
    await userEvent.click(await screen.findByTestId('monitor-delete'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('This cannot be undone.');
    const started = Date.now();
    await userEvent.click(screen.getByTestId('confirm-delete'));
    expect(await screen.findByText('Monitor deleted')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/monitors/4');
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/monitors$/), {
      timeout: DELETE_REDIRECT_MS + 1000,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELETE_REDIRECT_MS - 50);
  });

  it.each(['/monitors/99', '/monitors/abc'])('shows "not exist" with a way back for %s', async (route) => {
    renderDetail(route);
    const missing = await screen.findByTestId('monitor-missing');
    expect(missing).toHaveTextContent('Monitor does not exist');
    expect(within(missing).getByRole('link', { name: 'Return to monitor list' })).toHaveAttribute('href', '/monitors');
  });

  it('shows the history with "-" for no error, and new checks as they are pushed', async () => {
    renderDetail('/monitors/4?tab=history');
    const table = await screen.findByTestId('monitor-history');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      within(rows[0])
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(1),
    ).toEqual(['Down', '100', '500', 'Unexpected status 500 (expected 2xx)']);
    expect(within(rows[1]).getAllByRole('cell')[4]).toHaveTextContent(/^-$/);

    const pushed = makeCheck({ id: 9, checked_at: '2025-03-01T11:00:00.000Z', status_code: 204 });
    act(() =>
      pushHandlers()['monitor.checked']({
        monitorId: 4,
        check: pushed,
        status: 'up',
        response_time: 100,
        uptime: 99,
        last_checked: pushed.checked_at,
      }),
    );
    expect(screen.getByTestId('monitor-check-9')).toHaveTextContent('204');
  });

  it('says when there are no checks yet', async () => {
    checks = [];
    renderDetail('/monitors/4?tab=history');
    expect(await screen.findByTestId('monitor-history-empty')).toHaveTextContent('No checks yet');
  });

  it('shows the settings with headers, body and state', async () => {
    renderDetail('/monitors/4?tab=settings');
    const settings = await screen.findByTestId('monitor-settings');
    expect(settings).toHaveTextContent('POST');
    expect(within(settings).getByTestId('monitor-settings-headers')).toHaveTextContent('X-Token: abc');
    expect(settings).toHaveTextContent('{"ping":true}');
    expect(within(settings).getByTestId('monitor-settings-state')).toHaveTextContent('Active');
  });

  it('shows "not exist" when the monitor is deleted elsewhere', async () => {
    renderDetail();
    await screen.findByTestId('monitor-detail-name');
    act(() => useMonitorDetailStore.getState().applyChange({ action: 'deleted', monitor }));
    expect(screen.getByTestId('monitor-missing')).toBeInTheDocument();
  });
});

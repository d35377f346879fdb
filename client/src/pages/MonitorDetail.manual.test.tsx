import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MonitorDto } from '@vigil/proto';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useMonitorDetailStore } from '../features/monitors/detailStore';
import { useRealtimeStore } from '../realtime/store';
import { makeCheck, makeMonitor } from '../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import MonitorDetailPage from './MonitorDetail.page';

function renderDetail() {
  return renderWithProviders(
    <Routes>
      <Route path="/monitors/:id" element={<MonitorDetailPage />} />
    </Routes>,
    { route: '/monitors/9' },
  );
}

describe('MonitorDetailPage of a manual monitor', () => {
  let monitor: MonitorDto;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    useRealtimeStore.setState({ status: 'connected' });
    useMonitorDetailStore.setState({ id: null, monitor: null, status: 'idle', error: null, removed: false });
    monitor = makeMonitor({ id: 9, name: 'Generator', type: 'manual', url: 'manual://', status: 'up', history: [] });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/monitors/9/status' && init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { status: 'down'; message: string };
        const check = makeCheck({ id: 7, status: body.status, error: body.message, status_code: null });
        return Promise.resolve(
          jsonResponse(200, { success: true, message: 'Status set', check, monitor: { ...monitor, status: body.status } }),
        );
      }
      if (url === '/api/monitors/9') return Promise.resolve(jsonResponse(200, { success: true, monitor }));
      if (url.startsWith('/api/monitors/9/stats')) {
        return Promise.resolve(
          jsonResponse(200, {
            success: true,
            stats: { range: '24h', uptime: 100, checks: 0, avg_response_time: null, p95_response_time: null, series: [] },
          }),
        );
      }
      if (url.startsWith('/api/monitors/9/checks'))
        return Promise.resolve(jsonResponse(200, { success: true, checks: [], total: 0, page: 1, pageSize: 20 }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found', code: 'monitors.notFound' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('sets the status by hand with a message, offering no check now', async () => {
    signIn(MEMBER);
    renderDetail();
    const control = await screen.findByTestId('monitor-manual-status');
    expect(screen.queryByTestId('monitor-check-now')).not.toBeInTheDocument();

    await userEvent.click(within(control).getByText('Down'));
    await userEvent.type(within(control).getByTestId('monitor-manual-status-message'), 'Fuel low');
    await userEvent.click(within(control).getByTestId('monitor-manual-status-save'));

    const call = fetchMock.mock.calls.find(([url]) => url === '/api/monitors/9/status');
    expect(call).toBeDefined();
    expect(JSON.parse(String((call![1] as RequestInit).body))).toEqual({ status: 'down', message: 'Fuel low' });
    expect(await screen.findByText('Status set to Down')).toBeInTheDocument();
    expect(useMonitorDetailStore.getState().monitor?.status).toBe('down');
  });

  it('shows no control to a viewer', async () => {
    signIn(VIEWER);
    renderDetail();
    expect(await screen.findByTestId('monitor-detail-name')).toHaveTextContent('Generator');
    expect(screen.queryByTestId('monitor-manual-status')).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MaintenanceDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dayKey } from '../features/maintenance/calendar';
import { MAINTENANCE_RESYNC_MS, useMaintenanceStore } from '../features/maintenance/store';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { maintenancePage, makeMaintenance } from '../test/maintenance';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import MaintenancePage from './Maintenance.page';

const initial = useMaintenanceStore.getState();

describe('MaintenancePage', () => {
  let items: MaintenanceDto[];
  let fetchMock: ReturnType<typeof vi.fn>;
  const calls = (method: string) =>
    fetchMock.mock.calls.filter(([, init]) => ((init as RequestInit | undefined)?.method ?? 'GET') === method).map(([url]) => String(url));

  beforeEach(() => {
    useMaintenanceStore.setState(initial, true);
    useRealtimeStore.setState({ status: 'connected' });
    signIn(MEMBER);
    items = [
      makeMaintenance({ id: 1 }),
      makeMaintenance({
        id: 2,
        title: 'Router swap',
        strategy: 'single',
        phase: 'scheduled',
        start_at: '2099-05-01T20:00:00.000Z',
        end_at: '2099-05-01T22:00:00.000Z',
        current: { start: '2099-05-01T20:00:00.000Z', end: '2099-05-01T22:00:00.000Z' },
        scope: { all: true, monitors: [], agents: [], groups: [] },
      }),
    ];
    fetchMock = vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (url === '/api/maintenance/1/end' && method === 'POST') {
        items[0] = { ...items[0], phase: 'scheduled', current: { start: '2025-03-11T02:00:00.000Z', end: '2025-03-11T04:00:00.000Z' } };
        return Promise.resolve(jsonResponse(200, { success: true, maintenance: items[0] }));
      }
      if (url === '/api/maintenance/2' && method === 'DELETE') {
        items = items.filter((item) => item.id !== 2);
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Deleted' }));
      }
      if (url.startsWith('/api/maintenance/calendar?')) {
        const now = new Date();
        const start = new Date(now.getFullYear(), now.getMonth(), 10, 2);
        const end = new Date(now.getFullYear(), now.getMonth(), 10, 4);
        return Promise.resolve(
          jsonResponse(200, {
            success: true,
            occurrences: [{ id: 1, title: 'Database upgrade', start: start.toISOString(), end: end.toISOString() }],
          }),
        );
      }
      const phase = new URL(url, 'http://localhost').searchParams.get('phase');
      return Promise.resolve(jsonResponse(200, maintenancePage(items.filter((item) => !phase || item.phase === phase))));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('lists windows with their phase, schedule, occurrence and scope', async () => {
    renderWithProviders(<MaintenancePage />);
    const first = await screen.findByTestId('maintenance-card-1');
    expect(screen.getByTestId('maintenance-phase-1')).toHaveTextContent('Active');
    expect(screen.getByTestId('maintenance-occurrence-1')).toHaveTextContent('Under way until');
    expect(first).toHaveTextContent('Every Tue, 02:00–04:00 (UTC)');
    expect(first).toHaveTextContent('1 monitor');
    expect(screen.getByTestId('maintenance-phase-2')).toHaveTextContent('Scheduled');
    expect(screen.getByTestId('maintenance-occurrence-2')).toHaveTextContent('Next:');
    expect(screen.getByTestId('maintenance-card-2')).toHaveTextContent('Every monitor and agent');
    expect(screen.queryByTestId('maintenance-end-2')).toBeNull();
  });

  it('filters by phase on the server', async () => {
    renderWithProviders(<MaintenancePage />);
    await screen.findByTestId('maintenance-card-1');
    await userEvent.click(within(screen.getByTestId('maintenance-phase')).getByText('Scheduled'));
    await waitFor(() => expect(screen.queryByTestId('maintenance-card-1')).toBeNull());
    expect(calls('GET').at(-1)).toBe('/api/maintenance?page=1&pageSize=20&phase=scheduled');
  });

  it('ends an active window now', async () => {
    renderWithProviders(<MaintenancePage />);
    await userEvent.click(await screen.findByTestId('maintenance-end-1'));
    await waitFor(() => expect(screen.getByTestId('maintenance-phase-1')).toHaveTextContent('Scheduled'));
    expect(calls('POST')).toEqual(['/api/maintenance/1/end']);
  });

  it('deletes a window after confirming', async () => {
    renderWithProviders(<MaintenancePage />);
    await userEvent.click(await screen.findByTestId('maintenance-delete-2'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('maintenance-card-2')).toBeNull());
    expect(calls('DELETE')).toEqual(['/api/maintenance/2']);
  });

  it('reads the list again when a window starts elsewhere', async () => {
    renderWithProviders(<MaintenancePage />);
    await screen.findByTestId('maintenance-card-2');
    items[1] = { ...items[1], phase: 'active', updated_at: '2025-03-02T00:00:00.000Z' };
    pushHandlers()['maintenance.changed']({ action: 'started', id: 2 });
    await waitFor(() => expect(screen.getByTestId('maintenance-phase-2')).toHaveTextContent('Active'), {
      timeout: MAINTENANCE_RESYNC_MS + 2000,
    });
  });

  it('shows a month calendar of occurrences', async () => {
    renderWithProviders(<MaintenancePage />);
    await screen.findByTestId('maintenance-card-1');
    await userEvent.click(screen.getByText('Calendar'));
    const now = new Date();
    const day = await screen.findByTestId(`maintenance-day-${dayKey(new Date(now.getFullYear(), now.getMonth(), 10))}`);
    expect(await within(day).findByText('Database upgrade')).toHaveAttribute('href', '/maintenance/1/edit');
    const read = calls('GET').find((url) => url.startsWith('/api/maintenance/calendar?'))!;
    const query = new URL(read, 'http://localhost').searchParams;
    expect((Date.parse(query.get('to')!) - Date.parse(query.get('from')!)) / 86_400_000).toBeCloseTo(42, 0);

    await userEvent.click(screen.getByTestId('maintenance-calendar-next'));
    await waitFor(() => expect(calls('GET').filter((url) => url.startsWith('/api/maintenance/calendar?'))).toHaveLength(2));
  });

  it('offers a viewer no changes', async () => {
    signIn(VIEWER);
    renderWithProviders(<MaintenancePage />);
    await screen.findByTestId('maintenance-card-1');
    expect(screen.queryByTestId('maintenance-create')).toBeNull();
    expect(screen.queryByTestId('maintenance-end-1')).toBeNull();
    expect(screen.queryByTestId('maintenance-edit-1')).toBeNull();
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MaintenanceDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pushHandlers } from '../../../realtime/handlers';
import { maintenancePage, makeMaintenance } from '../../../test/maintenance';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { currentWindow, MonitorMaintenance, MonitorMaintenanceHint } from './MonitorMaintenance';

describe('a monitor’s maintenance window', () => {
  let windows: MaintenanceDto[];
  let fetchMock: ReturnType<typeof vi.fn>;
  const reads = () => fetchMock.mock.calls.map(([url]) => String(url));

  beforeEach(() => {
    signIn(MEMBER);
    windows = [
      makeMaintenance({ id: 3, title: 'Kernel patch', current: { start: '2025-03-04T02:00:00.000Z', end: '2025-03-04T04:00:00.000Z' } }),
    ];
    fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, maintenancePage(windows))));
    vi.stubGlobal('fetch', fetchMock);
  });

  it('asks the server for the windows covering the monitor and shows the one under way', async () => {
    renderWithProviders(<MonitorMaintenance monitorId={5} status="maintenance" />);
    const badge = await screen.findByTestId('monitor-maintenance');
    expect(badge).toHaveTextContent(/In maintenance until .*2025/);
    expect(badge).toHaveAttribute('data-phase', 'active');
    expect(reads()).toEqual(['/api/maintenance?page=1&pageSize=5&monitorId=5']);
  });

  it('shows the next planned window for a monitor not in maintenance yet', async () => {
    windows = [makeMaintenance({ id: 4, phase: 'scheduled', current: { start: '2099-01-01T00:00:00.000Z', end: null } })];
    renderWithProviders(<MonitorMaintenance monitorId={5} status="up" />);
    expect(await screen.findByTestId('monitor-maintenance')).toHaveTextContent(/Maintenance planned .*2099.* – switched off/);
  });

  it('shows nothing when no window covers the monitor, and reads again when one is pushed', async () => {
    windows = [makeMaintenance({ phase: 'ended', current: null })];
    renderWithProviders(<MonitorMaintenance monitorId={5} status="up" />);
    await waitFor(() => expect(reads()).toHaveLength(1));
    expect(screen.queryByTestId('monitor-maintenance')).toBeNull();

    windows = [makeMaintenance({ id: 9 })];
    pushHandlers()['maintenance.changed']({ action: 'created', id: 9 });
    expect(await screen.findByTestId('monitor-maintenance')).toBeInTheDocument();
  });

  it('reads the list’s window only when the user points at it', async () => {
    renderWithProviders(<MonitorMaintenanceHint monitorId={7} />);
    expect(reads()).toEqual([]);
    await userEvent.hover(screen.getByTestId('monitor-maintenance-hint-7'));
    expect(await screen.findByText('Window: Kernel patch')).toHaveAttribute('href', '/maintenance/3/edit');
    expect(reads()).toEqual(['/api/maintenance?page=1&pageSize=5&monitorId=7']);
  });

  it('prefers the window under way over a planned one', () => {
    const planned = makeMaintenance({ id: 1, phase: 'scheduled' });
    const active = makeMaintenance({ id: 2, phase: 'active' });
    expect(currentWindow([planned, active])?.id).toBe(2);
    expect(currentWindow([makeMaintenance({ phase: 'paused' })])).toBeNull();
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearComponentNames } from '../features/componentPicker/names';
import { makeMaintenance } from '../test/maintenance';
import { makeMonitor, monitorsPage } from '../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import MaintenanceEditPage from './MaintenanceEdit.page';

function renderAt(route: string) {
  renderWithProviders(
    <Routes>
      <Route path="/maintenance/create" element={<MaintenanceEditPage />} />
      <Route path="/maintenance/:id/edit" element={<MaintenanceEditPage />} />
      <Route path="/maintenance" element={<div data-testid="maintenance-list-page" />} />
    </Routes>,
    { route },
  );
}

describe('MaintenanceEditPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const sent = (method: string) =>
    fetchMock.mock.calls
      .filter(([, init]) => (init as RequestInit | undefined)?.method === method)
      .map(([url, init]) => [String(url), JSON.parse(String((init as RequestInit).body)) as unknown]);

  beforeEach(() => {
    signIn(MEMBER);
    clearComponentNames();
    fetchMock = vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'POST' || init?.method === 'PUT') {
        return Promise.resolve(jsonResponse(200, { success: true, maintenance: makeMaintenance({ id: 7 }) }));
      }
      if (url === '/api/maintenance/7') {
        return Promise.resolve(
          jsonResponse(200, {
            success: true,
            maintenance: makeMaintenance({
              id: 7,
              title: 'Nightly backups',
              strategy: 'cron',
              timezone: 'Europe/Berlin',
              cron: '0 3 * * *',
              duration_minutes: 30,
              weekdays: [],
              start_time: null,
              end_time: null,
              scope: { all: false, monitors: [5], agents: [], groups: [] },
            }),
          }),
        );
      }
      if (url === '/api/monitors/5')
        return Promise.resolve(jsonResponse(200, { success: true, monitor: makeMonitor({ id: 5, name: 'Backups' }) }));
      if (url.startsWith('/api/monitors?')) {
        return Promise.resolve(jsonResponse(200, monitorsPage([makeMonitor({ id: 12, name: 'Shop group', type: 'group' })])));
      }
      if (url === '/api/status-pages') return Promise.resolve(jsonResponse(200, { success: true, pages: [] }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('creates a weekly window on the chosen days and times, covering a group', async () => {
    renderAt('/maintenance/create');
    await userEvent.type(await screen.findByTestId('maintenance-title'), 'Patch night');
    await userEvent.click(screen.getByTestId('maintenance-strategy'));
    await userEvent.click(await screen.findByRole('option', { name: 'Weekly' }));
    await userEvent.click(screen.getByTestId('maintenance-timezone'));
    await userEvent.clear(screen.getByTestId('maintenance-timezone'));
    await userEvent.type(screen.getByTestId('maintenance-timezone'), 'New_Y');
    await userEvent.click(await screen.findByRole('option', { name: 'America/New_York' }));
    await userEvent.click(screen.getByText('Tue'));
    await userEvent.click(screen.getByText('Thu'));
    await userEvent.clear(screen.getByTestId('maintenance-start-time'));
    await userEvent.type(screen.getByTestId('maintenance-start-time'), '23:00');
    await userEvent.clear(screen.getByTestId('maintenance-end-time'));
    await userEvent.type(screen.getByTestId('maintenance-end-time'), '01:00');
    await userEvent.click(screen.getByText('Group'));
    await userEvent.click(await screen.findByTestId('maintenance-components-search-add-group-12'));
    await userEvent.click(screen.getByTestId('maintenance-notify'));
    await userEvent.click(screen.getByTestId('maintenance-submit'));

    expect(await screen.findByTestId('maintenance-list-page')).toBeInTheDocument();
    expect(sent('POST')).toEqual([
      [
        '/api/maintenance',
        {
          title: 'Patch night',
          description: '',
          strategy: 'weekly',
          timezone: 'America/New_York',
          enabled: true,
          startAt: null,
          endAt: null,
          weekdays: [2, 4],
          startTime: '23:00',
          endTime: '01:00',
          scope: { all: false, monitors: [], agents: [], groups: [12] },
          pages: [],
          notify: true,
          endWhenHealthyMinutes: null,
        },
      ],
    ]);
  }, 30_000);

  it('refuses a window that covers nothing, naming the fields', async () => {
    renderAt('/maintenance/create');
    await userEvent.type(await screen.findByTestId('maintenance-title'), 'Upgrade');
    await userEvent.click(screen.getByTestId('maintenance-submit'));
    expect(await screen.findByTestId('maintenance-scope-error')).toHaveTextContent('Choose what it covers');
    expect(screen.getByText('Choose when it starts')).toBeInTheDocument();
    expect(screen.getByTestId('form-error')).toHaveTextContent('Some fields need attention');
    expect(sent('POST')).toEqual([]);
  }, 15_000);

  it('edits a saved cron window and sends it whole', async () => {
    renderAt('/maintenance/7/edit');
    expect(await screen.findByTestId('maintenance-cron')).toHaveValue('0 3 * * *');
    expect(await screen.findByText('Backups')).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId('maintenance-duration'));
    await userEvent.type(screen.getByTestId('maintenance-duration'), '90');
    await userEvent.click(screen.getByTestId('maintenance-submit'));
    await waitFor(() => expect(sent('PUT')).toHaveLength(1));
    expect(sent('PUT')[0]).toEqual([
      '/api/maintenance/7',
      expect.objectContaining({
        title: 'Nightly backups',
        strategy: 'cron',
        timezone: 'Europe/Berlin',
        cron: '0 3 * * *',
        durationMinutes: 90,
        scope: { all: false, monitors: [5], agents: [], groups: [] },
      }),
    ]);
  }, 15_000);
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { ExportPanel } from './ExportPanel';

describe('ExportPanel', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let clicked: string[];

  beforeEach(() => {
    signIn(MEMBER);
    clicked = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('downloads the chosen range and tier of a monitor’s checks', async () => {
    fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response('time,status\r\n', { headers: { 'Content-Disposition': 'attachment; filename="vigil-monitor-7-checks-a-b.csv"' } }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ExportPanel kind="monitor" id={7} />);
    await userEvent.click(screen.getByTestId('monitor-export-range'));
    await userEvent.click(await screen.findByRole('option', { name: 'Last 90 days' }));
    await userEvent.click(screen.getByTestId('monitor-export-tier'));
    await userEvent.click(await screen.findByRole('option', { name: 'Daily totals' }));
    await userEvent.click(screen.getByTestId('monitor-export-download'));
    await waitFor(() => expect(clicked).toEqual(['vigil-monitor-7-checks-a-b.csv']));
    const url = new URL(String(fetchMock.mock.calls[0][0]), 'http://localhost');
    expect(url.pathname).toBe('/api/monitors/7/checks/export');
    expect(url.searchParams.get('tier')).toBe('daily');
    expect(url.searchParams.get('format')).toBe('csv');
    expect(Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)).toBe(90 * 24 * 3_600_000);
  });

  it('says why the server refused an agent export', async () => {
    fetchMock = vi.fn(() => Promise.resolve(jsonResponse(400, { success: false, code: 'exports.tierNotKept', message: 'x' })));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ExportPanel kind="agent" id={3} />);
    expect(screen.queryByTestId('agent-export-tier')).toBeNull();
    await userEvent.click(screen.getByTestId('agent-export-download'));
    expect(await screen.findByTestId('agent-export-error')).toHaveTextContent('This tier is not kept that far back');
    expect(String(fetchMock.mock.calls[0][0])).toMatch(/^\/api\/agents\/3\/metrics\/export\?from=.*&format=csv$/);
    expect(clicked).toEqual([]);
  });
});

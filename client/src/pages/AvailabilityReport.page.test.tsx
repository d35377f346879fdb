import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AvailabilityRow } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, writeToken } from '../features/auth/session';
import i18n from '../i18n';
import { jsonResponse, renderWithProviders, signIn, VIEWER } from '../test/render';
import AvailabilityReportPage from './AvailabilityReport.page';

const row = (id: number, extra: Partial<AvailabilityRow>): AvailabilityRow => ({
  monitor_id: id,
  name: `monitor ${id}`,
  type: 'http',
  checks: 1000,
  up: 1000,
  uptime: 100,
  incidents: 0,
  downtime_minutes: 0,
  ...extra,
});

/** The server's report: two pages, as the page reads them 1,000 at a time. */
const PAGES: Record<string, { monitors: AvailabilityRow[]; next_after: number | null }> = {
  '0': { monitors: [row(1, {}), row(2, { name: 'checkout', up: 990, uptime: 99, incidents: 2, downtime_minutes: 45.5 })], next_after: 2 },
  '2': { monitors: [row(3, { name: 'new one', checks: 0, up: 0, uptime: null })], next_after: null },
};
const thisMonth = new Date().toISOString().slice(0, 7);

describe('AvailabilityReportPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const reads = () => fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost'));

  beforeEach(() => {
    signIn(VIEWER);
    fetchMock = vi.fn((url: string) => {
      const query = new URL(url, 'http://localhost').searchParams;
      if (query.get('month') === '2001-01') {
        return Promise.resolve(jsonResponse(400, { success: false, code: 'reports.monthNotKept', message: 'older' }));
      }
      if (!query.has('limit')) {
        return Promise.resolve(
          new Response('monitor_id,name\r\n1,monitor 1\r\n', {
            status: 200,
            headers: {
              'Content-Type': 'text/csv',
              'Content-Disposition': `attachment; filename="vigil-availability-${query.get('month')}.csv"`,
            },
          }),
        );
      }
      const page = PAGES[query.get('after') ?? '0'];
      return Promise.resolve(jsonResponse(200, { success: true, month: query.get('month'), from: '', to: '', ...page }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    await i18n.changeLanguage('en-US');
  });

  it('reads every page of this month and shows the totals and the worst monitors first', async () => {
    renderWithProviders(<AvailabilityReportPage />);
    const table = await screen.findByTestId('report-table');
    expect(
      reads().map((url) => [url.pathname, url.searchParams.get('month'), url.searchParams.get('after'), url.searchParams.get('limit')]),
    ).toEqual([
      ['/api/reports/availability', thisMonth, '0', '1000'],
      ['/api/reports/availability', thisMonth, '2', '1000'],
    ]);
    const names = within(table)
      .getAllByTestId('report-row')
      .map((tr) => tr.querySelector('td')!.textContent);
    expect(names).toEqual(['checkouthttp', 'monitor 1http', 'new onehttp']);
    expect(screen.getByTestId('report-total-monitors')).toHaveTextContent('3');
    expect(screen.getByTestId('report-total-uptime')).toHaveTextContent('99.500 %');
    expect(screen.getByTestId('report-total-incidents')).toHaveTextContent('2');
    expect(screen.getByTestId('report-total-downtime')).toHaveTextContent('45.5 min');
    expect(within(table).getAllByTestId('report-row')[2]).toHaveTextContent('no checks');
  });

  it('reads another month when one is picked', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-10T00:00:00Z') });
    renderWithProviders(<AvailabilityReportPage />);
    await screen.findByTestId('report-table');
    vi.useRealTimers();
    await userEvent.click(screen.getByTestId('report-month'));
    await userEvent.click(await screen.findByRole('option', { name: 'January 2026' }));
    await screen.findByTestId('report-table');
    expect(reads().some((url) => url.searchParams.get('month') === '2026-01')).toBe(true);
  });

  it('shows the server’s refusal in the reader’s language', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2002-01-10T00:00:00Z') });
    renderWithProviders(<AvailabilityReportPage />);
    await i18n.changeLanguage('zh-CN');
    await screen.findByTestId('report-table');
    vi.useRealTimers();
    expect(screen.getByText('可用性报告')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('report-month'));
    await userEvent.click(await screen.findByRole('option', { name: '2001年1月' }));
    expect(await screen.findByTestId('error-state')).toHaveTextContent('该月份早于本服务器保留的小时汇总数据');
  });

  it('downloads the month as CSV under the server’s file name, with the session’s credential', async () => {
    writeToken('token-1');
    const created = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderWithProviders(<AvailabilityReportPage />);
    await screen.findByTestId('report-table');
    await userEvent.click(screen.getByTestId('report-download-csv'));
    await waitFor(() => expect(clicked).toEqual([`vigil-availability-${thisMonth}.csv`]));
    const download = reads().find((url) => !url.searchParams.has('limit'))!;
    expect(download.searchParams.get('format')).toBe('csv');
    expect(fetchMock.mock.calls.at(-1)![1].headers.Authorization).toBe('Bearer token-1');
    clearSession();
  });

  it('prints the report once it is read', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    renderWithProviders(<AvailabilityReportPage />);
    expect(screen.getByTestId('report-print')).toBeDisabled();
    await screen.findByTestId('report-table');
    await userEvent.click(screen.getByTestId('report-print'));
    expect(print).toHaveBeenCalledTimes(1);
  });
});

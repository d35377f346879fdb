import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeMonitor } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import MonitorCreatePage from '../../../pages/MonitorCreate.page';
import { cronSchedule, pushExamples, pushUrl } from '../types/push';
import { PushUrlPanel } from './PushUrlPanel';

const TOKEN = 'pT0k3n-abc';

describe('push URL and examples', () => {
  it('builds the URL from the origin and the token', () => {
    expect(pushUrl('https://vigil.example.com/', TOKEN)).toBe(`https://vigil.example.com/api/push/${TOKEN}`);
  });

  it.each([
    [60, '* * * * *'],
    [300, '*/5 * * * *'],
    [3600, '0 * * * *'],
    [21_600, '0 */6 * * *'],
    [86_400, '0 0 * * *'],
  ])('calls at least every %i s with %j', (interval, schedule) => {
    expect(cronSchedule(interval)).toBe(schedule);
  });

  it('gives curl, a crontab line and PowerShell reporting up', () => {
    const url = pushUrl('https://vigil.example.com', TOKEN);
    expect(pushExamples(url, 300)).toEqual({
      curl: `curl -fsS -m 10 --retry 3 "${url}?status=up&msg=OK"`,
      cron: `*/5 * * * * curl -fsS -m 10 --retry 3 "${url}?status=up&msg=OK" > /dev/null 2>&1`,
      powershell: `Invoke-RestMethod -Uri "${url}?status=up&msg=OK" -Method Get -TimeoutSec 10`,
    });
  });

  it('shows the URL with a copy button and each example in its tab', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('isSecureContext', true);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderWithProviders(<PushUrlPanel token={TOKEN} interval={300} origin="https://vigil.example.com" />);

    expect(screen.getByTestId('push-url')).toHaveTextContent(`https://vigil.example.com/api/push/${TOKEN}`);
    await userEvent.click(screen.getByTestId('push-url-copy'));
    expect(writeText).toHaveBeenCalledWith(`https://vigil.example.com/api/push/${TOKEN}`);
    expect(screen.getByTestId('push-example-curl')).toHaveTextContent(/^curl -fsS/);

    await userEvent.click(screen.getByTestId('push-tab-cron'));
    expect(screen.getByTestId('push-example-cron')).toHaveTextContent(/^\*\/5 \* \* \* \* curl/);
    await userEvent.click(screen.getByTestId('push-tab-powershell'));
    expect(screen.getByTestId('push-example-powershell')).toHaveTextContent(/^Invoke-RestMethod -Uri/);
    await userEvent.click(screen.getByTestId('push-example-copy-powershell'));
    expect(writeText).toHaveBeenLastCalledWith(expect.stringContaining('Invoke-RestMethod'));
  });
});

describe('creating a push monitor', () => {
  beforeEach(() => {
    signIn(MEMBER);
    const created = makeMonitor({ id: 12, name: 'Backup', type: 'push', url: 'push://heartbeat', push_token: TOKEN });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, { success: true, monitor: created }))),
    );
  });

  it("goes to the monitor's page, where its URL is shown", async () => {
    const view = renderWithProviders(
      <Routes>
        <Route path="/monitors/create" element={<MonitorCreatePage />} />
        <Route path="*" element={<div>elsewhere</div>} />
      </Routes>,
      { route: '/monitors/create' },
    );
    await userEvent.click(screen.getByTestId('monitor-type-push'));
    await userEvent.type(view.container.querySelector<HTMLInputElement>('[name="name"]')!, 'Backup');
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/monitors\/12$/));
  });
});

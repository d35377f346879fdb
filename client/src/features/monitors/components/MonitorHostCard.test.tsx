import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HostContextDto } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeMonitor } from '../../../test/monitors';
import { writeToken } from '../../auth/session';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { MonitorHostCard } from './MonitorHostCard';

const host = (overrides: Partial<HostContextDto> = {}): HostContextDto => ({
  agent: { id: 4, name: 'web-1', hostname: 'web-1.internal', status: 'active' },
  offline_since: null,
  reported_at: '2026-11-23T08:14:30.000Z',
  figures: { cpu: 97, memory: 91.3, swap: null, disk: { mount: '/var/lib/postgresql', percent: 99 }, load: [3.2, 2.1, 1.05] },
  changes: [
    { kind: 'container', name: 'api', state: 'exited', health: 'none', since: '2026-11-23T08:13:00.000Z' },
    { kind: 'container', name: 'worker', state: 'running', health: 'unhealthy', since: null },
    { kind: 'service', name: 'nginx.service', state: 'failed', since: null },
    { kind: 'alert', metric: 'temperature', item: 'nvme Composite', opened_at: '2026-11-23T08:03:00.000Z', closed_at: null },
  ],
  more_changes: 2,
  ...overrides,
});

describe('MonitorHostCard', () => {
  let answer: () => Response;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    writeToken('token-1');
    answer = () => jsonResponse(200, { success: true, host: host() });
    fetchMock = vi.fn(() => Promise.resolve(answer()));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const monitor = makeMonitor({ id: 9, status: 'down', host_agent_id: 4 });

  it("reads the monitor's host and shows its status, figures and changes, linking to the agent", async () => {
    renderWithProviders(<MonitorHostCard monitor={monitor} />);
    expect(await screen.findByTestId('monitor-host-agent')).toHaveTextContent('web-1');
    expect((fetchMock.mock.calls[0] as [string])[0]).toMatch(/\/api\/monitors\/9\/host$/);
    expect(screen.getByTestId('monitor-host-agent')).toHaveAttribute('href', '/agents/4');
    expect(screen.getByTestId('monitor-host-status')).toHaveTextContent('Online');
    expect(screen.getByTestId('monitor-host-cpu')).toHaveTextContent('97.0%');
    expect(screen.getByTestId('monitor-host-memory')).toHaveTextContent('91.3%');
    expect(screen.getByTestId('monitor-host-swap')).toHaveTextContent('-');
    expect(screen.getByText('Disk /var/lib/postgresql')).toBeInTheDocument();
    expect(screen.getByTestId('monitor-host-disk')).toHaveTextContent('99.0%');
    expect(screen.getByTestId('monitor-host-load')).toHaveTextContent('3.2 / 2.1 / 1.05');

    const [api, worker, nginx, temperature] = screen.getAllByTestId('monitor-host-change');
    expect(api).toHaveTextContent('Container api');
    expect(api).toHaveTextContent('Exited');
    expect(api).toHaveTextContent(/Since /);
    expect(worker).toHaveTextContent('Unhealthy');
    expect(within(nginx!).getByText('nginx.service')).toBeInTheDocument();
    expect(nginx).toHaveTextContent('Failed');
    expect(temperature).toHaveTextContent('Temperature alert (nvme Composite)');
    expect(temperature).toHaveTextContent('Open');
    expect(screen.getByTestId('monitor-host-more')).toHaveTextContent('… and 2 more');
  });

  it('says when the host went offline, and that nothing changed', async () => {
    answer = () =>
      jsonResponse(200, {
        success: true,
        host: host({
          agent: { id: 4, name: 'web-1', hostname: 'web-1.internal', status: 'inactive' },
          offline_since: '2026-11-23T08:10:00.000Z',
          changes: [],
          more_changes: 0,
        }),
      });
    renderWithProviders(<MonitorHostCard monitor={monitor} />);
    expect(await screen.findByTestId('monitor-host-reported')).toHaveTextContent(/^Offline since .+: the figures are its last ones$/);
    expect(screen.getByTestId('monitor-host-status')).toHaveTextContent('Offline');
    expect(screen.getByTestId('monitor-host-no-changes')).toBeInTheDocument();
    expect(screen.queryByTestId('monitor-host-more')).not.toBeInTheDocument();
  });

  it('shows nothing once the monitor names no host any more', async () => {
    answer = () => jsonResponse(404, { success: false, code: 'monitors.hostAgentNone', message: 'This monitor names no host agent' });
    renderWithProviders(<MonitorHostCard monitor={monitor} />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByTestId('monitor-host')).not.toBeInTheDocument());
  });

  it('offers a retry when the read fails', async () => {
    answer = () => jsonResponse(500, { success: false, message: 'boom' });
    renderWithProviders(<MonitorHostCard monitor={monitor} />);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    expect(screen.getByText('Failed to load the host')).toBeInTheDocument();
    answer = () => jsonResponse(200, { success: true, host: host() });
    await userEvent.click(retry);
    expect(await screen.findByTestId('monitor-host-agent')).toHaveTextContent('web-1');
  });
});

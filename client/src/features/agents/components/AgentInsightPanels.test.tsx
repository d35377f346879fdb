import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AgentContainerReport, AgentDeviceSeries } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import AgentDeviceChart from './AgentDeviceChart';
import { AgentContainersPanel, CONTAINERS_PAGE_SIZE } from './AgentContainersPanel';
import { AgentDevicesPanel } from './AgentDevicesPanel';
import { AgentSensorsPanel } from './AgentSensorsPanel';
import { AgentServicesPanel } from './AgentServicesPanel';

function container(id: number, overrides: Partial<AgentContainerReport> = {}): AgentContainerReport {
  return {
    id: id.toString(16).padStart(12, '0'),
    name: `app-${String(id).padStart(3, '0')}`,
    image: 'nginx:1.27',
    state: 'running',
    health: 'healthy',
    cpu: 2.5,
    memory_used: 64 * 1024 ** 2,
    memory_limit: 256 * 1024 ** 2,
    net_rx_rate: 12,
    net_tx_rate: 3,
    block_read_rate: 0,
    block_write_rate: 1,
    ...overrides,
  };
}

const rowNames = () => screen.getAllByTestId('agent-container-row').map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('AgentContainersPanel', () => {
  it('shows each container with its state and health badges, troubled ones first', () => {
    renderWithProviders(
      <AgentContainersPanel
        containers={[
          container(1, { name: 'web' }),
          container(2, { name: 'worker', state: 'exited', health: 'none', cpu: 0, memory_limit: 0, memory_used: 0 }),
          container(3, { name: 'db', health: 'unhealthy' }),
        ]}
      />,
    );
    expect(rowNames()).toEqual(['worker', 'db', 'web']);
    const [worker, db, web] = screen.getAllByTestId('agent-container-row');
    expect(within(worker!).getByTestId('container-state')).toHaveTextContent('Exited');
    expect(within(worker!).getByTestId('container-state')).toHaveAttribute('data-color', 'red');
    expect(within(worker!).getByTestId('container-health')).toHaveTextContent('No health check');
    expect(within(db!).getByTestId('container-health')).toHaveTextContent('Unhealthy');
    expect(within(db!).getByTestId('container-health')).toHaveAttribute('data-color', 'red');
    expect(within(web!).getByTestId('container-state')).toHaveAttribute('data-color', 'green');
    expect(web).toHaveTextContent('2.5%');
    expect(web).toHaveTextContent('64.0 MB of 256.0 MB');
    expect(web).toHaveTextContent('12.0 KB/s');
    // No memory limit: the used figure alone.
    expect(worker).toHaveTextContent('0 B');
    expect(worker).not.toHaveTextContent(' of ');
  });

  it('tells an unreadable Engine API socket (null) from a host without containers ([])', () => {
    const { unmount } = renderWithProviders(<AgentContainersPanel containers={null} />);
    expect(screen.getByTestId('agent-containers-unreadable')).toHaveTextContent('Cannot read the Docker/Podman socket');
    expect(screen.queryByTestId('agent-containers-table')).toBeNull();
    unmount();
    renderWithProviders(<AgentContainersPanel containers={[]} />);
    expect(screen.getByTestId('agent-containers-none')).toHaveTextContent('No containers on this host.');
  });

  it('pages 500 containers, searches them and sorts by a column', async () => {
    const many = Array.from({ length: 500 }, (_, index) => container(index + 1, { cpu: index % 100 }));
    renderWithProviders(<AgentContainersPanel containers={many} />);
    expect(screen.getAllByTestId('agent-container-row')).toHaveLength(CONTAINERS_PAGE_SIZE);
    expect(screen.getByText('Containers (500)')).toBeInTheDocument();
    await userEvent.click(within(screen.getByTestId('agent-containers-pages')).getByText('10'));
    expect(rowNames().at(-1)).toBe('app-500');

    await userEvent.click(screen.getByTestId('agent-containers-search'));
    await userEvent.paste('app-12');
    // app-120 … app-129, back on the first page.
    expect(rowNames()).toEqual(Array.from({ length: 10 }, (_, index) => `app-${120 + index}`));
    expect(screen.queryByTestId('agent-containers-pages')).toBeNull();

    await userEvent.click(screen.getByTestId('containers-sort-cpu'));
    // cpu = (n - 1) % 100: app-120 has 19 … app-129 has 28; the busiest first.
    expect(rowNames()[0]).toBe('app-129');
    expect(rowNames().at(-1)).toBe('app-120');
    await userEvent.click(screen.getByTestId('containers-sort-cpu'));
    expect(rowNames()[0]).toBe('app-120');

    await userEvent.clear(screen.getByTestId('agent-containers-search'));
    await userEvent.paste('zzz');
    expect(screen.getByTestId('agent-containers-no-match')).toHaveTextContent('No container matches the search.');
  });
});

describe('AgentSensorsPanel', () => {
  it('colours each temperature against its chip marks', () => {
    renderWithProviders(
      <AgentSensorsPanel
        sensors={[
          { name: 'coretemp Package id 0', celsius: 101, high: 80, critical: 100 },
          { name: 'coretemp Core 1', celsius: 82.25, high: 80, critical: 100 },
          { name: 'nvme Composite', celsius: 41, high: 70, critical: 85 },
          { name: 'acpitz temp1', celsius: 27.8 },
        ]}
      />,
    );
    const levels = screen.getAllByTestId('sensor-celsius').map((badge) => [badge.textContent, badge.getAttribute('data-level')]);
    expect(levels).toEqual([
      ['101.0 °C', 'critical'],
      ['82.3 °C', 'high'],
      ['41.0 °C', 'normal'],
      ['27.8 °C', 'unknown'],
    ]);
    expect(screen.getAllByTestId('agent-sensor-row')[3]).toHaveTextContent('acpitz temp1');
  });

  it.each([[null], [[]]])('says the host reports no sensors when they are %j', (sensors) => {
    renderWithProviders(<AgentSensorsPanel sensors={sensors} />);
    expect(screen.getByTestId('agent-sensors-none')).toHaveTextContent('This host reports no temperature sensors.');
  });
});

describe('AgentServicesPanel', () => {
  it('shows active in green, failed in red and the rest in grey', () => {
    renderWithProviders(
      <AgentServicesPanel
        services={[
          { name: 'nginx.service', state: 'active', sub_state: 'running' },
          { name: 'postgresql.service', state: 'failed', sub_state: 'failed' },
          { name: 'backup.service', state: 'inactive' },
        ]}
      />,
    );
    const badges = screen.getAllByTestId('service-state').map((badge) => [badge.textContent, badge.getAttribute('data-color')]);
    expect(badges).toEqual([
      ['Active', 'green'],
      ['Failed', 'red'],
      ['Inactive', 'gray'],
    ]);
    expect(screen.getAllByTestId('agent-service-row')[2]).toHaveTextContent('-');
  });

  it('says how to watch services when none are', () => {
    renderWithProviders(<AgentServicesPanel services={[]} />);
    expect(screen.getByTestId('agent-services-none')).toHaveTextContent('--services');
  });
});

describe('device history', () => {
  const disk: AgentDeviceSeries = {
    kind: 'disk',
    name: 'nvme0n1',
    points: [
      { time: '2025-03-04T12:00:00.000Z', read: 100, write: 20, busy: 5 },
      { time: '2025-03-04T12:01:00.000Z', read: 300, write: 40, busy: 55 },
    ],
  };
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    // jsdom lays nothing out: give the chart's container a size so recharts draws.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
      width: 600,
      height: 200,
      top: 0,
      left: 0,
      right: 600,
      bottom: 200,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    fetchMock = vi.fn((url: string) => {
      const query = new URL(url, 'http://localhost').searchParams;
      const kind = query.get('kind');
      const series = kind === 'disk' ? [disk, { ...disk, name: 'sda' }] : [];
      return Promise.resolve(jsonResponse(200, { success: true, devices: { range: query.get('range'), step: 60, kind, series } }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['disk', disk, ['Busy %', 'Read', 'Write']],
    [
      'nic',
      { kind: 'nic', name: 'eth0', points: [{ time: '2025-03-04T12:00:00.000Z', rx: 5, tx: 1 }] } as AgentDeviceSeries,
      ['In', 'Out'],
    ],
  ])('charts a %s series with its own lines', async (_kind, series, legend) => {
    const { container: root } = renderWithProviders(
      <AgentDeviceChart
        series={series}
        range="1h"
        end={Date.parse('2025-03-04T12:30:00.000Z')}
        language="en-US"
        labels={{ read: 'Read', write: 'Write', busy: 'Busy %', rx: 'In', tx: 'Out' }}
        formatPercent={(value) => `${value}%`}
        formatRate={(value) => `${value} KB/s`}
      />,
    );
    // The legend lists the lines drawn (recharts orders it by name); jsdom cannot lay out their paths.
    await vi.waitFor(() => expect(root.querySelectorAll('.recharts-legend-item-text')).toHaveLength(legend.length));
    expect([...root.querySelectorAll('.recharts-legend-item-text')].map((item) => item.textContent)).toEqual(legend);
  });

  it('reads one chart per disk for the range, and again when the range changes', async () => {
    renderWithProviders(<AgentDevicesPanel agentId={4} kind="disk" />);
    const cards = await screen.findAllByTestId('agent-device-series');
    expect(cards.map((card) => card.firstChild?.textContent)).toEqual(['nvme0n1', 'sda']);
    expect(fetchMock).toHaveBeenCalledWith('/api/agents/4/devices?kind=disk&range=1h', expect.anything());
    await userEvent.click(within(screen.getByTestId('agent-devices-disk-range')).getByText('24 hours'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/agents/4/devices?kind=disk&range=24h', expect.anything()));
    expect(await screen.findAllByTestId('agent-device-series')).toHaveLength(2);
  });

  it('says when a range holds no history', async () => {
    renderWithProviders(<AgentDevicesPanel agentId={4} kind="nic" />);
    expect(await screen.findByTestId('agent-devices-nic-empty')).toHaveTextContent('No reports in this period yet');
  });
});

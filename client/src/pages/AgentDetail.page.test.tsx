import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AgentDto, AgentInsightDto, AgentMetricPoint } from '@vigil/proto';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAgentDetailStore } from '../features/agents/detailStore';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { makeAgent, makePoint } from '../test/agents';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import { INSIGHT_REFRESH_MS } from '../features/agents/useAgentInsight';
import AgentDetailPage, { AGENT_DELETE_REDIRECT_MS } from './AgentDetail.page';

/** What a protocol 2 agent on a Linux host with Docker last sent. */
function protocol2Insight(): AgentInsightDto {
  const base = {
    image: 'nginx:1.27',
    cpu: 1,
    memory_used: 1024,
    memory_limit: 0,
    net_rx_rate: 0,
    net_tx_rate: 0,
    block_read_rate: 0,
    block_write_rate: 0,
  };
  return {
    reported_at: '2025-03-04T12:07:00.000Z',
    disk_io: [{ device: 'sda', read_rate: 10, write_rate: 5, busy: 3 }],
    sensors: [{ name: 'coretemp Package id 0', celsius: 92, high: 80, critical: 100 }],
    containers: [
      { ...base, id: 'aaaaaaaaaaaa', name: 'web', state: 'running', health: 'healthy' },
      { ...base, id: 'bbbbbbbbbbbb', name: 'worker', state: 'exited', health: 'none' },
    ],
    services: [{ name: 'nginx.service', state: 'failed', sub_state: 'failed' }],
  };
}

/** A protocol 1 agent never sends any of it. */
const PROTOCOL_1: AgentInsightDto = { reported_at: null, disk_io: null, sensors: null, containers: null, services: null };

function renderDetail(route = '/agents/4') {
  return renderWithProviders(
    <Routes>
      <Route path="/agents/:id" element={<AgentDetailPage />} />
      <Route path="/agents" element={<div>list</div>} />
    </Routes>,
    { route },
  );
}

describe('AgentDetailPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let agent: AgentDto;
  let points: AgentMetricPoint[];
  let insight: AgentInsightDto;

  beforeEach(() => {
    signIn(MEMBER);
    useRealtimeStore.setState({ status: 'connected' });
    useAgentDetailStore.setState({ id: null, agent: null, status: 'idle', error: null, removed: false });
    agent = makeAgent({
      id: 4,
      name: 'web',
      hostname: 'web-1',
      ip_address: '10.0.0.4',
      ip_addresses: ['10.0.0.4', 'fd00::4'],
      cpu_usage: 12.34,
      network_rx: 1023.9,
      network_tx: 1024,
      created_at: '2025-03-01T08:00:00.000Z',
      updated_at: '2025-03-04T12:07:00.000Z',
    });
    points = [makePoint({ time: '2025-03-04T12:05:00.000Z' }), makePoint({ time: '2025-03-04T12:06:00.000Z' })];
    insight = protocol2Insight();
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/agents/4' && init.method === 'DELETE')
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Agent deleted' }));
      if (url === '/api/agents/4') return Promise.resolve(jsonResponse(200, { success: true, agent }));
      if (url === '/api/agents/4/insight') return Promise.resolve(jsonResponse(200, { success: true, insight }));
      if (url.startsWith('/api/agents/4/devices')) {
        const query = new URL(url, 'http://localhost').searchParams;
        const series = [{ kind: query.get('kind'), name: 'eth0', points: [{ time: '2025-03-04T12:05:00.000Z', rx: 5, tx: 1 }] }];
        return Promise.resolve(
          jsonResponse(200, { success: true, devices: { range: query.get('range'), step: 60, kind: query.get('kind'), series } }),
        );
      }
      if (url.startsWith('/api/agents/4/metrics')) {
        const range = new URL(url, 'http://localhost').searchParams.get('range');
        return Promise.resolve(jsonResponse(200, { success: true, metrics: { range, step: 60, points } }));
      }
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Agent not found', code: 'agents.notFound' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('shows the name, online badge, host with IP, uptime span and the resource bars', async () => {
    renderDetail();
    const page = await screen.findByTestId('agent-detail');
    expect(within(page).getByTestId('agent-detail-name')).toHaveTextContent('web');
    expect(screen.getByTestId('agent-detail-status')).toHaveTextContent('Online');
    expect(screen.getByTestId('agent-detail-host')).toHaveTextContent('web-1 (10.0.0.4)');
    expect(screen.getByTestId('agent-detail-uptime')).toHaveTextContent('3d 4h 7m');
    expect(screen.getByTestId('agent-bar-cpu')).toHaveTextContent('12.3%');
    expect(screen.getByTestId('agent-bar-memory')).toHaveTextContent('25.0%');
    expect(screen.getByTestId('agent-bar-memory')).toHaveTextContent('2.0 GB of 8.0 GB');
    expect(screen.getByTestId('agent-bar-disk')).toHaveTextContent('80.0%');
    expect(screen.getByTestId('agent-bar-disk')).toHaveAttribute('data-color', 'red');
    expect(screen.getByTestId('agent-bar-cpu')).toHaveAttribute('data-color', 'green');
    expect(screen.getByTestId('agent-bar-rx')).toHaveTextContent('1023.9 KB/s');
    expect(screen.getByTestId('agent-bar-tx')).toHaveTextContent('1.0 MB/s');
    // 1024 KB/s over 51.2: a fifth of the bar.
    expect(screen.getByTestId('agent-bar-tx')).toHaveAttribute('data-percent', '20.0');
    expect(screen.getByTestId('agent-ip')).toHaveTextContent('10.0.0.4, fd00::4');
    expect(screen.getByTestId('agent-disks')).toHaveTextContent('ext4');
    expect(screen.getByTestId('agent-interfaces')).toHaveTextContent('eth0');
    expect(screen.getByTestId('agent-edit')).toHaveAttribute('href', '/agents/edit/4');
  });

  it('shows a connecting agent as offline', async () => {
    agent = { ...agent, status: 'connecting' };
    renderDetail();
    expect(await screen.findByTestId('agent-detail-status')).toHaveTextContent('Offline');
  });

  it('updates the figures when the agent reports', async () => {
    renderDetail();
    await screen.findByTestId('agent-detail');
    act(() => pushHandlers()['agent.reported']({ agentId: 4, agent: { ...agent, cpu_usage: 66.66 }, point: makePoint() }));
    expect(screen.getByTestId('agent-bar-cpu')).toHaveTextContent('66.7%');
  });

  it('loads the hour of metrics on the charts tab and changes range on request', async () => {
    renderDetail();
    await userEvent.click(await screen.findByTestId('agent-tab-charts'));
    expect(await screen.findByTestId('agent-charts')).toBeInTheDocument();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/agents/4/metrics?range=1h', expect.anything()));
    await userEvent.click(within(screen.getByTestId('agent-charts-range')).getByText('7 days'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/agents/4/metrics?range=7d', expect.anything()));
  });

  it('shows the containers, sensors and services tabs from the insight', async () => {
    renderDetail('/agents/4?tab=containers');
    const rows = await screen.findAllByTestId('agent-container-row');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('worker'), expect.stringContaining('web')]);
    expect(within(rows[0]!).getByTestId('container-state')).toHaveTextContent('Exited');
    await userEvent.click(screen.getByTestId('agent-tab-sensors'));
    expect(await screen.findByTestId('sensor-celsius')).toHaveAttribute('data-level', 'high');
    await userEvent.click(screen.getByTestId('agent-tab-services'));
    expect(await screen.findByTestId('service-state')).toHaveAttribute('data-color', 'red');
    await userEvent.click(screen.getByTestId('agent-tab-network'));
    expect(await screen.findByTestId('agent-device-series')).toHaveTextContent('eth0');
    expect(fetchMock).toHaveBeenCalledWith('/api/agents/4/devices?kind=nic&range=1h', expect.anything());
  });

  it.each(['containers', 'sensors', 'disks', 'services'])('tells a protocol 1 agent to update on the %s tab', async (tab) => {
    insight = PROTOCOL_1;
    renderDetail(`/agents/4?tab=${tab}`);
    expect(await screen.findByTestId('agent-insight-old')).toHaveTextContent('This agent does not report it: update the agent');
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/devices'), expect.anything());
  });

  it('says so when a protocol 2 host reports no per-disk I/O, and charts it when it does', async () => {
    insight = { ...protocol2Insight(), disk_io: null };
    const { unmount } = renderDetail('/agents/4?tab=disks');
    expect(await screen.findByTestId('agent-disk-io-none')).toHaveTextContent('does not report per-disk I/O');
    unmount();
    insight = protocol2Insight();
    renderDetail('/agents/4?tab=disks');
    expect(await screen.findByTestId('agent-devices-disk')).toBeInTheDocument();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/agents/4/devices?kind=disk&range=1h', expect.anything()));
  });

  it('reads the insight again on reports of this agent, at most once per interval', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const insightReads = () => fetchMock.mock.calls.filter(([url]) => url === '/api/agents/4/insight').length;
      renderDetail('/agents/4?tab=containers');
      await screen.findAllByTestId('agent-container-row');
      expect(insightReads()).toBe(1);
      insight = { ...insight, containers: [] };
      const report = (at: string) =>
        act(() => pushHandlers()['agent.reported']({ agentId: 4, agent: { ...agent, updated_at: at }, point: makePoint() }));
      report('2025-03-04T12:08:00.000Z');
      report('2025-03-04T12:08:01.000Z');
      await act(() => vi.advanceTimersByTimeAsync(INSIGHT_REFRESH_MS));
      expect(await screen.findByTestId('agent-containers-none')).toBeInTheDocument();
      // Two reports inside one interval: one read.
      expect(insightReads()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says when a range has no reports', async () => {
    points = [];
    renderDetail('/agents/4?tab=charts');
    expect(await screen.findByTestId('agent-charts-empty')).toHaveTextContent('No reports in this period yet');
  });

  it('deletes after confirmation, shows a toast and goes to the list 3 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderDetail();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await user.click(await screen.findByTestId('agent-delete'));
      await user.click(await screen.findByTestId('confirm-delete'));
      expect(await screen.findByText('Agent deleted')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(AGENT_DELETE_REDIRECT_MS - 100));
      expect(screen.getByTestId('location')).toHaveTextContent('/agents/4');
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/agents$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['/agents/abc', 'Agent with ID abc not found'],
    ['/agents/99', 'Agent with ID 99 not found'],
  ])('shows not found with a way back for %s', async (route, text) => {
    renderDetail(route);
    const missing = await screen.findByTestId('agent-not-found');
    expect(missing).toHaveTextContent(text);
    expect(within(missing).getByRole('link', { name: 'Return to agent list' })).toHaveAttribute('href', '/agents');
  });

  it('does not ask the server about a non-numeric id', async () => {
    renderDetail('/agents/abc');
    await screen.findByTestId('agent-not-found');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows not found when the agent is deleted elsewhere', async () => {
    renderDetail();
    await screen.findByTestId('agent-detail');
    act(() => useAgentDetailStore.getState().applyChange({ action: 'deleted', agent }));
    expect(screen.getByTestId('agent-not-found')).toBeInTheDocument();
  });
});

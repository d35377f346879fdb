import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AgentDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAgentsStore } from '../features/agents/listStore';
import { pushHandlers } from '../realtime/handlers';
import { AGENT_VIEW_STORAGE_KEY } from '../features/agents/useAgentView';
import { useRealtimeStore } from '../realtime/store';
import { agentsPage, makeAgent, makePoint } from '../test/agents';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import AgentsPage from './Agents.page';

describe('AgentsPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let agents: AgentDto[];
  const web = makeAgent({
    id: 1,
    name: 'web',
    hostname: 'web-1',
    ip_address: '10.0.0.1',
    status: 'active',
    os: 'Ubuntu 24.04',
    version: '1.2.0',
    cpu_usage: 42.44,
  });
  const db = makeAgent({ id: 2, name: 'db', status: 'inactive' });
  const edge = makeAgent({ id: 3, name: 'edge', status: 'connecting', cpu_usage: null, memory_total: null, disk_total: null });

  beforeEach(() => {
    signIn(MEMBER);
    useRealtimeStore.setState({ status: 'connected' });
    useAgentsStore.setState({
      rows: [],
      total: 0,
      status: 'idle',
      error: null,
      query: { page: 1, pageSize: 100, status: 'all', search: '' },
    });
    agents = [web, db, edge];
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (init.method === 'DELETE') return Promise.resolve(jsonResponse(200, { success: true, message: 'Agent deleted' }));
      const status = new URL(url, 'http://localhost').searchParams.get('status');
      const shown = agents.filter((agent) => !status || agent.status === status);
      return Promise.resolve(jsonResponse(200, { ...agentsPage(agents), agents: shown, total: shown.length }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const listCalls = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/agents?'));

  async function showTable() {
    await userEvent.click(within(await screen.findByTestId('agents-view-toggle')).getByTitle('Table view'));
    return screen.findByTestId('agents-table');
  }

  it('shows cards with status and CPU, memory and disk bars by default', async () => {
    renderWithProviders(<AgentsPage />);
    const card = await screen.findByTestId('agent-card-1');
    expect(within(card).getByTestId('agent-status-1')).toHaveTextContent('Online');
    expect(card).toHaveTextContent('42.4%');
    expect(card).toHaveTextContent('25.0%');
    expect(card).toHaveTextContent('80.0%');
    expect(screen.getByTestId('agent-status-2')).toHaveTextContent('Offline');
    expect(screen.getByTestId('agent-status-3')).toHaveTextContent('Connecting');
    expect(screen.getByTestId('agent-card-3')).toHaveTextContent('No report yet');
    expect(screen.getByTestId('agents-create')).toHaveAttribute('href', '/agents/create');
    expect(listCalls()).toEqual(['/api/agents?page=1&pageSize=100']);
  });

  it('lists name, host, IP, status, OS, version and actions in the table, and remembers the table view', async () => {
    const first = renderWithProviders(<AgentsPage />);
    await showTable();
    const cells = within(screen.getByTestId('agent-row-1')).getAllByRole('cell');
    expect(cells.slice(0, 6).map((cell) => cell.textContent)).toEqual(['web', 'web-1', '10.0.0.1', 'Online', 'Ubuntu 24.04', '1.2.0']);
    expect(screen.getByTestId('agent-view-1')).toHaveAttribute('href', '/agents/1');
    expect(screen.getByTestId('agent-edit-1')).toHaveAttribute('href', '/agents/edit/1');
    expect(localStorage.getItem(AGENT_VIEW_STORAGE_KEY)).toBe('table');
    first.unmount();

    renderWithProviders(<AgentsPage />);
    expect(await screen.findByTestId('agents-table')).toBeInTheDocument();
  });

  it('shows the counts in the status filter and asks the server for the chosen status', async () => {
    renderWithProviders(<AgentsPage />);
    await screen.findByTestId('agent-card-1');
    const filter = screen.getByTestId('agents-filter');
    expect(filter).toHaveTextContent('All (3)');
    expect(filter).toHaveTextContent('Online (1)');
    expect(filter).toHaveTextContent('Offline (1)');
    expect(filter).toHaveTextContent('Connecting (1)');
    expect(filter).toHaveTextContent('Unreachable (0)');

    await userEvent.click(within(filter).getByText('Offline (1)'));
    await vi.waitFor(() => expect(screen.queryByTestId('agent-card-1')).not.toBeInTheDocument());
    expect(screen.getByTestId('agent-card-2')).toBeInTheDocument();
    expect(listCalls().at(-1)).toBe('/api/agents?page=1&pageSize=100&status=inactive');
  });

  it('searches on the server after typing pauses', async () => {
    renderWithProviders(<AgentsPage />);
    await screen.findByTestId('agent-card-1');
    await userEvent.type(screen.getByTestId('agents-search'), 'web');
    await vi.waitFor(() => expect(listCalls().at(-1)).toBe('/api/agents?page=1&pageSize=100&search=web'));
  });

  it('pages through a thousand agents a hundred at a time', async () => {
    fetchMock.mockImplementation((url: string) => {
      const page = Number(new URL(url, 'http://localhost').searchParams.get('page'));
      const rows = Array.from({ length: 100 }, (_, index) => makeAgent({ id: (page - 1) * 100 + index + 1 }));
      return Promise.resolve(jsonResponse(200, agentsPage(rows, { total: 1000, page })));
    });
    renderWithProviders(<AgentsPage />);
    await showTable();
    expect(screen.getAllByTestId(/^agent-row-/)).toHaveLength(100);
    await userEvent.click(screen.getByRole('button', { name: '10' }));
    expect(await screen.findByTestId('agent-row-1000')).toBeInTheDocument();
    expect(listCalls().at(-1)).toBe('/api/agents?page=10&pageSize=100');
    // Two pages of 100 table rows in jsdom: slow on a busy machine, so more than the default 5 s.
  }, 20_000);

  it('follows pushes: a new agent appears, figures and status change without a reload', async () => {
    renderWithProviders(<AgentsPage />);
    await screen.findByTestId('agent-card-1');

    act(() => pushHandlers()['agent.reported']({ agentId: 1, agent: { ...web, cpu_usage: 91.27 }, point: makePoint() }));
    expect(screen.getByTestId('agent-card-1')).toHaveTextContent('91.3%');

    act(() =>
      pushHandlers()['agent.status_changed']({
        agentId: 1,
        name: 'web',
        previous: 'active',
        status: 'inactive',
        changed_at: web.updated_at,
      }),
    );
    expect(screen.getByTestId('agent-status-1')).toHaveTextContent('Offline');
    expect(screen.getByTestId('agents-filter')).toHaveTextContent('Offline (2)');

    act(() => pushHandlers()['agents.changed']({ action: 'created', agent: makeAgent({ id: 9, name: 'new-box', status: 'connecting' }) }));
    expect(screen.getByTestId('agent-card-9')).toHaveTextContent('new-box');
    expect(screen.getByTestId('agents-filter')).toHaveTextContent('All (4)');
    expect(listCalls()).toHaveLength(1);
  });

  it('deletes after confirmation, removes the agent and says so', async () => {
    renderWithProviders(<AgentsPage />);
    await userEvent.click(await screen.findByTestId('agent-delete-2'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Delete agent "db"?');
    await userEvent.click(screen.getByTestId('confirm-delete'));
    expect(await screen.findByText('Agent deleted')).toBeInTheDocument();
    expect(screen.queryByTestId('agent-card-2')).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/agents/2', expect.objectContaining({ method: 'DELETE' }));
  });

  it('keeps the dialog open with the reason when the delete fails', async () => {
    fetchMock.mockImplementation((_url: string, init: RequestInit) =>
      Promise.resolve(
        init.method === 'DELETE'
          ? jsonResponse(404, { success: false, message: 'Agent not found', code: 'agents.notFound' })
          : jsonResponse(200, agentsPage(agents)),
      ),
    );
    renderWithProviders(<AgentsPage />);
    await userEvent.click(await screen.findByTestId('agent-delete-1'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByTestId('delete-error')).toHaveTextContent('Failed to delete agent');
    expect(screen.getByTestId('delete-error')).toHaveTextContent('Agent not found');
  });

  it('offers to add an agent when there are none', async () => {
    agents = [];
    renderWithProviders(<AgentsPage />);
    const empty = await screen.findByTestId('agents-empty');
    expect(within(empty).getByRole('link', { name: 'Add agent' })).toHaveAttribute('href', '/agents/create');
  });

  it('shows the failure with a retry', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(500, { success: false, message: '' }));
    renderWithProviders(<AgentsPage />);
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Failed to load agent data');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('agent-card-1')).toBeInTheDocument();
  });
});

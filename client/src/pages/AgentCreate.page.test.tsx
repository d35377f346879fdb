import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COPIED_MS } from '../components/CopyValueButton/CopyValueButton';
import { useAgentEnrolmentStore } from '../features/agents/enrolmentStore';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { makeAgent } from '../test/agents';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import AgentCreatePage from './AgentCreate.page';

const TOKEN = 'vgr_token123';

describe('AgentCreatePage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let serverUrl: string | null;
  let writeText: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    signIn(MEMBER);
    useRealtimeStore.setState({ status: 'connected' });
    serverUrl = null;
    fetchMock = vi.fn((url: string) => {
      if (url === '/api/agents/token/generate') {
        return Promise.resolve(
          jsonResponse(200, {
            success: true,
            token: TOKEN,
            token_id: 42,
            expires_at: '2025-03-03T10:00:00.000Z',
            server_url: serverUrl,
            message: 'Registration token generated',
          }),
        );
      }
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
    writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('isSecureContext', true);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
  });

  const generateCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/agents/token/generate');

  it('generates one token and shows it with the page origin as the server address', async () => {
    renderWithProviders(<AgentCreatePage />);
    expect(await screen.findByTestId('agent-token')).toHaveTextContent(TOKEN);
    expect(screen.getByTestId('agent-server-address')).toHaveTextContent(window.location.origin);
    expect(screen.getByTestId('agent-token-note')).toHaveTextContent('valid for 24 hours and is shown only once');
    expect(generateCalls()).toHaveLength(1);
    expect(generateCalls()[0][1]).toMatchObject({ method: 'POST' });
  });

  it("uses the server's public address when it has one", async () => {
    serverUrl = 'https://vigil.example.com';
    renderWithProviders(<AgentCreatePage />);
    expect(await screen.findByTestId('agent-server-address')).toHaveTextContent(/^https:\/\/vigil\.example\.com$/);
    expect(screen.getByTestId('agent-start-command')).toHaveTextContent(
      'node vigil-agent.mjs --server https://vigil.example.com --token vgr_token123 --interval 60',
    );
  });

  it('copies the token and confirms it for two seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderWithProviders(<AgentCreatePage />);
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      // user-event puts its own clipboard in place on setup; this one records what is written.
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
      await user.click(await screen.findByTestId('copy-token'));
      expect(writeText).toHaveBeenCalledWith(TOKEN);
      expect(screen.getByTestId('copy-token')).toHaveTextContent('Copied');
      await act(() => vi.advanceTimersByTimeAsync(COPIED_MS));
      expect(screen.getByTestId('copy-token')).toHaveTextContent(/^Copy$/);

      await user.click(screen.getByTestId('copy-server-address'));
      expect(writeText).toHaveBeenLastCalledWith(window.location.origin);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the commands for the chosen system: Linux by default, Windows without a download command', async () => {
    renderWithProviders(<AgentCreatePage />);
    const origin = window.location.origin;
    expect(await screen.findByTestId('agent-download-link')).toHaveAttribute('href', `${origin}/downloads/vigil-agent.mjs`);
    expect(screen.getByTestId('agent-download-command')).toHaveTextContent(
      `curl -fsSLo vigil-agent.mjs ${origin}/downloads/vigil-agent.mjs`,
    );
    expect(screen.getByTestId('agent-service-command')).toHaveTextContent(
      `curl -fsSL ${origin}/downloads/install.sh | sudo bash -s -- --server ${origin} --token ${TOKEN} --interval 60`,
    );
    expect(screen.getByTestId('agent-os-linux')).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByTestId('agent-os-windows'));
    await userEvent.click(screen.getByTestId('agent-arch-arm64'));
    expect(screen.getByTestId('agent-arch-arm64')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByTestId('agent-download-command')).not.toBeInTheDocument();
    expect(screen.getByTestId('agent-download-link')).toHaveAttribute('href', `${origin}/downloads/vigil-agent.mjs`);
    expect(screen.getByTestId('agent-service-command')).toHaveTextContent(
      `iwr ${origin}/downloads/install.ps1 -OutFile install.ps1; .\\install.ps1 -Server ${origin} -Token ${TOKEN} -Interval 60`,
    );
    expect(screen.getByText(/win-arm64/)).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('agent-os-darwin'));
    expect(screen.getByTestId('agent-download-command')).toBeInTheDocument();
    expect(screen.getByText(/launchd/)).toBeInTheDocument();
  });

  it('shows an agent that registers with this token as soon as the push arrives', async () => {
    renderWithProviders(<AgentCreatePage />);
    await screen.findByTestId('agent-token');
    expect(screen.getByTestId('agent-registered-waiting')).toBeInTheDocument();

    act(() => {
      useAgentEnrolmentStore.getState().applyChange({ action: 'created', agent: makeAgent({ id: 8, name: 'other', registration_id: 41 }) });
      useAgentEnrolmentStore.getState().applyChange({
        action: 'created',
        agent: makeAgent({ id: 9, name: 'new-box', hostname: 'box-9', status: 'connecting', registration_id: 42 }),
      });
    });
    const list = screen.getByTestId('agent-registered-list');
    expect(within(list).queryByTestId('agent-registered-8')).not.toBeInTheDocument();
    const item = within(list).getByTestId('agent-registered-9');
    expect(item).toHaveTextContent('new-box');
    expect(item).toHaveTextContent('box-9');
    expect(item).toHaveTextContent('Connecting');
    expect(within(item).getByRole('link', { name: 'Details' })).toHaveAttribute('href', '/agents/9');

    act(() =>
      pushHandlers()['agent.status_changed']({
        agentId: 9,
        name: 'new-box',
        previous: 'connecting',
        status: 'active',
        changed_at: '2025-03-02T10:00:00Z',
      }),
    );
    expect(item).toHaveTextContent('Online');
  });

  it('stops watching the token when the page is left', async () => {
    const { unmount } = renderWithProviders(<AgentCreatePage />);
    await screen.findByTestId('agent-token');
    expect(useAgentEnrolmentStore.getState().tokenId).toBe(42);
    unmount();
    expect(useAgentEnrolmentStore.getState().tokenId).toBeNull();
  });

  it('says when no token could be generated, with a retry and the way back', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(500, { success: false, message: '' }));
    renderWithProviders(<AgentCreatePage />);
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Failed to generate registration token');
    expect(screen.getByTestId('agent-create-back')).toHaveAttribute('href', '/agents');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('agent-token')).toHaveTextContent(TOKEN);
  });
});

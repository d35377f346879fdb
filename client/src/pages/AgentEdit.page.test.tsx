import { notifications } from '@mantine/notifications';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AgentDto } from '@vigil/proto';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAgent } from '../test/agents';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import AgentEditPage, { AGENT_EDIT_REDIRECT_MS } from './AgentEdit.page';

function renderEdit(route = '/agents/edit/4') {
  return renderWithProviders(
    <Routes>
      <Route path="/agents/edit/:id" element={<AgentEditPage />} />
      <Route path="/agents" element={<div>list</div>} />
    </Routes>,
    { route },
  );
}

describe('AgentEditPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let agent: AgentDto;
  let updateAnswer: () => Response;

  beforeEach(() => {
    signIn(MEMBER);
    agent = makeAgent({ id: 4, name: 'web' });
    updateAnswer = () => jsonResponse(200, { success: true, message: 'Agent updated', agent: { ...agent, name: 'web-renamed' } });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/agents/4' && init.method === 'PUT') return Promise.resolve(updateAnswer());
      if (url === '/api/agents/4') return Promise.resolve(jsonResponse(200, { success: true, agent }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Agent not found', code: 'agents.notFound' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const puts = () => fetchMock.mock.calls.filter(([, init]) => (init as RequestInit).method === 'PUT');

  it('requires a name and sends nothing without one', async () => {
    renderEdit();
    const input = await screen.findByTestId('agent-name-input');
    expect(input).toHaveValue('web');
    await userEvent.clear(input);
    await userEvent.type(input, '   ');
    await userEvent.click(screen.getByTestId('agent-save'));
    expect(await screen.findByText('Agent name is required')).toBeInTheDocument();
    expect(puts()).toHaveLength(0);
  });

  it('refuses a name over 100 characters', async () => {
    renderEdit();
    const input = await screen.findByTestId('agent-name-input');
    await userEvent.clear(input);
    await userEvent.click(input);
    await userEvent.paste('x'.repeat(101));
    await userEvent.click(screen.getByTestId('agent-save'));
    expect(await screen.findByText('Agent name must be at most 100 characters')).toBeInTheDocument();
    expect(puts()).toHaveLength(0);
  });

  it('saves the trimmed name, shows a 2 s toast and returns to the list 1.5 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const toast = vi.spyOn(notifications, 'show');
      renderEdit();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const input = await screen.findByTestId('agent-name-input');
      await user.clear(input);
      await user.type(input, '  web-renamed ');
      await user.click(screen.getByTestId('agent-save'));
      expect(await screen.findByText('Agent updated')).toBeInTheDocument();
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ color: 'green', message: 'Agent updated', autoClose: 2000 }));
      expect(JSON.parse(String((puts()[0][1] as RequestInit).body))).toEqual({ name: 'web-renamed', dependsOn: [] });
      await act(() => vi.advanceTimersByTimeAsync(AGENT_EDIT_REDIRECT_MS - 100));
      expect(screen.getByTestId('location')).toHaveTextContent('/agents/edit/4');
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/agents$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the server's reason when saving fails", async () => {
    updateAnswer = () =>
      jsonResponse(400, { success: false, message: 'Agent name must be at most 100 characters', code: 'agents.nameTooLong' });
    renderEdit();
    await userEvent.click(await screen.findByTestId('agent-save'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('Update failed: Agent name must be at most 100 characters');
    expect(screen.getByTestId('location')).toHaveTextContent('/agents/edit/4');
  });

  it('shows a refused dependency cycle under "Depends on", naming the cycle, not above the form', async () => {
    agent = makeAgent({ id: 4, name: 'web', depends_on: [{ type: 'agent', id: 4 }] });
    updateAnswer = () =>
      jsonResponse(400, {
        success: false,
        message: 'dependsOn would make a cycle: web → db → web',
        code: 'dependencies.cycle',
        field: 'dependsOn',
      });
    renderEdit();
    await userEvent.click(await screen.findByTestId('agent-save'));
    const error = await screen.findByText(/→ db → web$/);
    expect(error.closest('.mantine-MultiSelect-root')).not.toBeNull();
    expect(screen.queryByTestId('form-error')).toBeNull();
    expect(JSON.parse(String((puts()[0][1] as RequestInit).body))).toEqual({ name: 'web', dependsOn: [{ type: 'agent', id: 4 }] });
  });

  it.each([
    ['/agents/edit/abc', 'Agent with ID abc not found'],
    ['/agents/edit/99', 'Agent with ID 99 not found'],
  ])('shows not found for %s', async (route, text) => {
    renderEdit(route);
    const missing = await screen.findByTestId('agent-not-found');
    expect(missing).toHaveTextContent(text);
    expect(within(missing).getByRole('link', { name: 'Return to agent list' })).toHaveAttribute('href', '/agents');
  });
});

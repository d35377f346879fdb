import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { agentsPage, makeAgent } from '../../../test/agents';
import { makeMonitor } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, formValuesFromMonitor } from '../form';
import { MonitorForm } from './MonitorForm';

function renderForm(initial = defaultFormValues()) {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
  const view = renderWithProviders(
    <MonitorForm initial={initial} editing={false} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />,
  );
  const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
  return { onSubmit, field };
}

describe('a container monitor’s agent', () => {
  let searches: string[];

  beforeEach(() => {
    signIn(MEMBER);
    searches = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        if (url.startsWith('/api/agents?')) {
          searches.push(new URL(url, 'http://vigil').searchParams.get('search') ?? '');
          return Promise.resolve(jsonResponse(200, agentsPage([makeAgent({ id: 4, name: 'db-1' }), makeAgent({ id: 5, name: 'db-2' })])));
        }
        if (url === '/api/agents/4')
          return Promise.resolve(jsonResponse(200, { success: true, agent: makeAgent({ id: 4, name: 'db-1' }) }));
        return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
      }),
    );
  });

  it('is picked among the agents the server finds, and sent with the container name', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-container'));
    await userEvent.type(field('name')!, 'Web container');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByText(MESSAGES['notifications.fieldRequired']).length).toBeGreaterThan(0);
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.click(screen.getByTestId('monitor-setting-agentId'));
    await userEvent.type(screen.getByTestId('monitor-setting-agentId'), 'db');
    // The typed text goes to the server (a thousand agents are never listed here at once).
    await vi.waitFor(() => expect(searches).toContain('db'));
    await userEvent.click(await screen.findByRole('option', { name: 'db-2' }));
    await userEvent.type(field('containerName')!, 'web');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ type: 'container', agentId: 5, containerName: 'web' });
  });

  it('names the saved agent when editing', async () => {
    renderForm(formValuesFromMonitor(makeMonitor({ type: 'container', settings: { agentId: 4, containerName: 'web' } })));
    await vi.waitFor(() => expect(screen.getByTestId('monitor-setting-agentId')).toHaveValue('db-1'));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentsPage, makeAgent } from '../../../test/agents';
import { makeMonitor, monitorsPage } from '../../../test/monitors';
import { ADMIN, jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, formValuesFromMonitor } from '../form';
import { MonitorForm } from './MonitorForm';

const east = makeAgent({ id: 3, name: 'Frankfurt probe' });
const west = makeAgent({ id: 4, name: 'Oregon probe' });

function renderForm(initial = defaultFormValues()) {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
  const view = renderWithProviders(<MonitorForm initial={initial} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />);
  const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
  return { onSubmit, field };
}

async function enter(input: HTMLInputElement | null, text: string) {
  await userEvent.clear(input!);
  await userEvent.click(input!);
  await userEvent.paste(text);
}

async function fillRequired(field: (name: string) => HTMLInputElement | null) {
  await enter(field('name'), 'Shop');
  await enter(field('url'), 'https://shop.example.com/health');
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('MonitorForm locations', () => {
  let reads: string[];

  beforeEach(() => {
    reads = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        reads.push(url);
        if (url.startsWith('/api/agents?')) {
          const search = new URL(url, 'http://x').searchParams.get('search')?.toLowerCase() ?? '';
          return Promise.resolve(jsonResponse(200, agentsPage([east, west].filter((agent) => agent.name.toLowerCase().includes(search)))));
        }
        if (url === '/api/agents/3') return Promise.resolve(jsonResponse(200, { success: true, agent: east }));
        if (url.startsWith('/api/monitors?')) return Promise.resolve(jsonResponse(200, monitorsPage([])));
        return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lets an admin add an agent found by search beside this server and sends the locations with the quorum', async () => {
    signIn(ADMIN);
    const { field, onSubmit } = renderForm();
    await fillRequired(field);
    expect(field('locationServer')).toBeChecked();
    const picker = screen.getByRole('combobox', { name: 'Agents' });
    await userEvent.click(picker);
    await userEvent.type(picker, 'frank');
    // The server searches agents only, a first page of them: never the monitors, never the whole list.
    await waitFor(() => expect(reads).toContain('/api/agents?page=1&pageSize=20&search=frank'));
    expect(reads.some((url) => url.startsWith('/api/monitors?') && url.includes('search='))).toBe(false);
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Oregon probe' })).toBeNull());
    await userEvent.click(screen.getByRole('option', { name: 'Frankfurt probe' }));
    await userEvent.selectOptions(field('quorum') as unknown as HTMLSelectElement, 'majority');
    expect(screen.getByTestId('monitor-quorum-help')).toHaveTextContent(
      'more than half of the known locations must fail; a tie is not down',
    );
    expect(screen.getByTestId('monitor-quorum-help')).toHaveTextContent('Locations whose agent is offline are unknown and do not count.');
    await save();
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ locations: ['server', 'agent:3'], quorum: 'majority', quorumMin: null }),
    );
  }, 20_000);

  it('refuses no location at all, and a quorum of more locations than there are, sending nothing', async () => {
    signIn(ADMIN);
    const { field, onSubmit } = renderForm();
    await fillRequired(field);
    await userEvent.click(field('locationServer')!);
    await save();
    expect(screen.getByText('Choose at least one location')).toBeInTheDocument();
    await userEvent.click(field('locationServer')!);
    await userEvent.selectOptions(field('quorum') as unknown as HTMLSelectElement, 'atLeast');
    await enter(field('quorumMin'), '2');
    await save();
    expect(screen.getByText('N must be a whole number from 1 to the number of locations')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await enter(field('quorumMin'), '1');
    await save();
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ locations: ['server'], quorum: 'atLeast', quorumMin: 1 }));
  }, 20_000);

  it('shows a member the agents read-only and leaves the locations out of the save, the quorum in', async () => {
    signIn(MEMBER);
    const monitor = makeMonitor({ id: 8, name: 'Shop', locations: ['server', 'agent:3'], quorum: 'atLeast', quorum_min: 2 });
    const { field, onSubmit } = renderForm(formValuesFromMonitor(monitor));
    const fields = screen.getByTestId('monitor-locations-fields');
    expect(within(fields).getByText('Only an admin can change where this monitor is checked from.')).toBeInTheDocument();
    expect(field('locationServer')).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Agents' })).toBeDisabled();
    expect(await within(fields).findByText('Frankfurt probe')).toBeInTheDocument();
    expect(field('quorumMin')).toHaveValue('2');
    await userEvent.selectOptions(field('quorum') as unknown as HTMLSelectElement, 'any');
    await save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    const body = onSubmit.mock.calls[0][0];
    expect(body).toMatchObject({ quorum: 'any', quorumMin: null });
    expect(body).not.toHaveProperty('locations');
  }, 20_000);

  it('offers no locations for a type only this server can check, and sends none', async () => {
    signIn(ADMIN);
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-push'));
    expect(screen.queryByTestId('monitor-locations-fields')).not.toBeInTheDocument();
    await enter(field('name'), 'Nightly backup');
    await save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).not.toHaveProperty('locations');
    expect(onSubmit.mock.calls[0][0]).not.toHaveProperty('quorum');
  }, 20_000);
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { agentsPage, makeAgent } from '../../test/agents';
import { makeMonitor, monitorsPage } from '../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../test/render';
import { ComponentSearch } from './ComponentSearch';
import { clearComponentNames, useComponentNames } from './names';
import type { PickOption } from './refs';

/** 1,234 monitors on the server; the fake answers each read with the page it asks for. */
const TOTAL = 1234;
const all = Array.from({ length: TOTAL }, (_, index) => makeMonitor({ id: index + 1, name: `svc-${index + 1}` }));

function answer(url: string) {
  const query = new URL(url, 'http://localhost').searchParams;
  const page = Number(query.get('page'));
  const size = Number(query.get('pageSize'));
  if (url.startsWith('/api/agents?')) return jsonResponse(200, agentsPage([makeAgent({ id: 7, name: 'db-host' })]));
  const search = query.get('search') ?? '';
  const matching = all.filter((monitor) => monitor.name.includes(search));
  return jsonResponse(200, monitorsPage(matching.slice((page - 1) * size, page * size), { total: matching.length, page, pageSize: size }));
}

describe('ComponentSearch', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const reads = () => fetchMock.mock.calls.map(([url]) => String(url));

  beforeEach(() => {
    signIn(MEMBER);
    clearComponentNames();
    fetchMock = vi.fn((url: string) => Promise.resolve(answer(url)));
    vi.stubGlobal('fetch', fetchMock);
  });

  it('reads one page of matches at a time and pages through them on the server', async () => {
    renderWithProviders(<ComponentSearch kinds={['monitor', 'agent']} isChosen={() => false} onAdd={vi.fn()} testId="picker" />);
    expect(await screen.findByTestId('picker-add-monitor-1')).toBeInTheDocument();
    expect(screen.getByTestId('picker-total')).toHaveTextContent('1234 matches');
    expect(screen.queryByTestId('picker-add-monitor-21')).toBeNull();
    expect(reads()).toEqual(['/api/monitors?page=1&pageSize=20']);

    await userEvent.click(within(screen.getByTestId('picker-pages')).getByRole('button', { name: '2' }));
    expect(await screen.findByTestId('picker-add-monitor-21')).toBeInTheDocument();
    expect(reads().at(-1)).toBe('/api/monitors?page=2&pageSize=20');
    // Names of what a search showed are known, so chosen rows need no read of their own.
    expect(useComponentNames.getState().names['monitor:21']).toBe('svc-21');
  });

  it('searches as the user types, from the first page', async () => {
    renderWithProviders(<ComponentSearch kinds={['monitor']} isChosen={() => false} onAdd={vi.fn()} testId="picker" />);
    await screen.findByTestId('picker-add-monitor-1');
    await userEvent.type(screen.getByTestId('picker-search'), 'svc-12');
    await waitFor(() => expect(reads().at(-1)).toBe('/api/monitors?page=1&pageSize=20&search=svc-12'));
    // svc-12, svc-120 … svc-129 and svc-1200 … svc-1234.
    await waitFor(() => expect(screen.getByTestId('picker-total')).toHaveTextContent('46 matches'));
  });

  it('adds one component, and marks those already chosen', async () => {
    const onAdd = vi.fn();
    renderWithProviders(<ComponentSearch kinds={['monitor']} isChosen={(ref) => ref.id === 2} onAdd={onAdd} testId="picker" />);
    await userEvent.click(await screen.findByTestId('picker-add-monitor-1'));
    expect(onAdd).toHaveBeenCalledWith([{ ref: { type: 'monitor', id: 1 }, name: 'svc-1' }]);
    expect(screen.getByTestId('picker-add-monitor-2')).toBeDisabled();
    expect(screen.getByTestId('picker-add-monitor-2')).toHaveTextContent('Added');
  });

  it('adds every match, reading them page by page at the largest page size', async () => {
    const onAdd = vi.fn<(options: PickOption[]) => void>();
    renderWithProviders(<ComponentSearch kinds={['monitor']} isChosen={(ref) => ref.id === 5} onAdd={onAdd} testId="picker" />);
    await userEvent.click(await screen.findByTestId('picker-add-all'));
    await waitFor(() => expect(onAdd).toHaveBeenCalledTimes(1));
    expect(reads().slice(1)).toEqual([
      '/api/monitors?page=1&pageSize=500',
      '/api/monitors?page=2&pageSize=500',
      '/api/monitors?page=3&pageSize=500',
    ]);
    const added = onAdd.mock.calls[0][0];
    expect(added).toHaveLength(TOTAL - 1);
    expect(added.some((option) => option.ref.id === 5)).toBe(false);
  });

  it('finds agents and group monitors through their own lists', async () => {
    renderWithProviders(<ComponentSearch kinds={['monitor', 'agent', 'group']} isChosen={() => false} onAdd={vi.fn()} testId="picker" />);
    await screen.findByTestId('picker-add-monitor-1');
    await userEvent.click(screen.getByText('Agent'));
    expect(await screen.findByTestId('picker-add-agent-7')).toHaveTextContent('Add');
    await userEvent.click(screen.getByText('Group'));
    await waitFor(() => expect(reads().at(-1)).toBe('/api/monitors?page=1&pageSize=20&type=group'));
  });
});

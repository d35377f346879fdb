import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAgent } from '../../test/agents';
import { makeMonitor } from '../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../test/render';
import { ComponentList, LIST_PAGE_SIZE } from './ComponentList';
import { clearComponentNames, useComponentNames } from './names';
import type { PickedRef } from './refs';

const refs: PickedRef[] = [
  ...Array.from({ length: 60 }, (_, index) => ({ type: 'monitor' as const, id: index + 1 })),
  { type: 'agent', id: 3 },
];

describe('ComponentList', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const reads = () => fetchMock.mock.calls.map(([url]) => String(url));

  beforeEach(() => {
    signIn(MEMBER);
    clearComponentNames();
    fetchMock = vi.fn((url: string) => {
      const monitor = /^\/api\/monitors\/(\d+)$/.exec(url);
      if (monitor) {
        const id = Number(monitor[1]);
        if (id === 2) return Promise.resolve(jsonResponse(404, { success: false, message: 'Monitor not found' }));
        return Promise.resolve(jsonResponse(200, { success: true, monitor: makeMonitor({ id, name: `svc-${id}` }) }));
      }
      const agent = /^\/api\/agents\/(\d+)$/.exec(url);
      if (agent) return Promise.resolve(jsonResponse(200, { success: true, agent: makeAgent({ id: Number(agent[1]), name: 'db-host' }) }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('names only the rows on screen, and the next page when it is shown', async () => {
    useComponentNames.getState().learn([{ ref: { type: 'monitor', id: 1 }, name: 'known' }]);
    renderWithProviders(<ComponentList refs={refs} onRemove={vi.fn()} emptyText="none" testId="list" />);
    expect(await screen.findByText('svc-3')).toBeInTheDocument();
    expect(screen.getByTestId('list-item-monitor:1')).toHaveTextContent('known');
    expect(screen.getByTestId('list-item-monitor:2')).toHaveTextContent('Deleted (#2)');
    // One page of 25, less the one already known.
    await waitFor(() => expect(reads()).toHaveLength(LIST_PAGE_SIZE - 1));
    expect(screen.queryByTestId('list-item-monitor:26')).toBeNull();
    expect(screen.getByTestId('list-count')).toHaveTextContent('61 chosen');

    await userEvent.click(within(screen.getByTestId('list-pages')).getByRole('button', { name: '3' }));
    expect(await screen.findByText('db-host')).toBeInTheDocument();
    expect(reads()).toContain('/api/agents/3');
    expect(reads()).not.toContain('/api/monitors/26');
  });

  it('moves and removes by position in the whole list', async () => {
    const onMove = vi.fn();
    const onRemove = vi.fn();
    useComponentNames.getState().learn(refs.slice(0, 30).map((ref) => ({ ref, name: `svc-${ref.id}` })));
    renderWithProviders(<ComponentList refs={refs.slice(0, 30)} onRemove={onRemove} onMove={onMove} emptyText="none" testId="list" />);
    await userEvent.click(within(screen.getByTestId('list-pages')).getByRole('button', { name: '2' }));
    await userEvent.click(await screen.findByTestId('list-up-monitor:26'));
    expect(onMove).toHaveBeenCalledWith(25, 24);
    await userEvent.click(screen.getByTestId('list-remove-monitor:30'));
    expect(onRemove).toHaveBeenCalledWith(29);
    expect(screen.queryByTestId('list-up-monitor:1')).toBeNull();
  });

  it('says when nothing is chosen', () => {
    renderWithProviders(<ComponentList refs={[]} onRemove={vi.fn()} emptyText="Nothing here" testId="list" />);
    expect(screen.getByTestId('list-empty')).toHaveTextContent('Nothing here');
  });

  it('offers no changes when read-only', async () => {
    renderWithProviders(
      <ComponentList refs={refs.slice(0, 2)} onRemove={vi.fn()} onMove={vi.fn()} readOnly emptyText="none" testId="list" />,
    );
    expect(await screen.findByText('svc-1')).toBeInTheDocument();
    expect(screen.queryByTestId('list-remove-monitor:1')).toBeNull();
    expect(screen.queryByTestId('list-up-monitor:3')).toBeNull();
  });
});

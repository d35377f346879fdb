import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DependencyRef } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAgent } from '../../test/agents';
import { makeMonitor } from '../../test/monitors';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { DependencyPicker } from './DependencyPicker';

const router = makeMonitor({ id: 5, name: 'Core router' });
const shop = makeMonitor({ id: 6, name: 'Shop API' });
const gateway = makeAgent({ id: 3, name: 'Gateway host' });

describe('DependencyPicker', () => {
  let reads: string[];

  beforeEach(() => {
    reads = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        reads.push(url);
        const search = new URL(url, 'http://x').searchParams.get('search')?.toLowerCase() ?? '';
        const named = <T extends { name: string }>(rows: T[]) => rows.filter((row) => row.name.toLowerCase().includes(search));
        if (url.startsWith('/api/monitors?')) {
          const monitors = named([router, shop]);
          return Promise.resolve(jsonResponse(200, { success: true, monitors, total: monitors.length, page: 1, pageSize: 20, counts: {} }));
        }
        if (url.startsWith('/api/agents?')) {
          const agents = named([gateway]);
          return Promise.resolve(jsonResponse(200, { success: true, agents, total: agents.length, page: 1, pageSize: 20, counts: {} }));
        }
        if (url === '/api/monitors/5') return Promise.resolve(jsonResponse(200, { success: true, monitor: router }));
        return Promise.resolve(jsonResponse(404, { success: false, message: 'Monitor not found', code: 'monitors.notFound' }));
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  function renderPicker(value: DependencyRef[] = [], self?: DependencyRef) {
    const onChange = vi.fn<(refs: DependencyRef[]) => void>();
    renderWithProviders(<DependencyPicker value={value} onChange={onChange} self={self} />);
    return { onChange, input: screen.getByRole('combobox', { name: 'Depends on' }) };
  }

  it('searches monitors and agents through the paged reads, a first page each, and picks one', async () => {
    const { onChange, input } = renderPicker();
    expect(reads).toEqual([]);
    await userEvent.click(input);
    expect(await screen.findByRole('option', { name: 'Core router' })).toBeInTheDocument();
    await userEvent.type(input, 'gate');
    // The server's answer for the typed text replaces the first page: the router is no longer offered.
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Core router' })).toBeNull());
    await userEvent.click(screen.getByRole('option', { name: 'Gateway host' }));
    expect(onChange).toHaveBeenLastCalledWith([{ type: 'agent', id: 3 }]);
    const searches = reads.filter((url) => url.includes('search=gate'));
    expect(searches).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/api\/monitors\?page=1&pageSize=20/),
        expect.stringMatching(/^\/api\/agents\?page=1&pageSize=20/),
      ]),
    );
    // Never the whole list: every read is paged.
    expect(reads.every((url) => url.includes('pageSize=20'))).toBe(true);
  });

  it('names saved dependencies by reading each, and marks one that no longer exists', async () => {
    renderPicker([
      { type: 'monitor', id: 5 },
      { type: 'monitor', id: 99 },
    ]);
    expect(await screen.findByText('Core router')).toBeInTheDocument();
    expect(await screen.findByText('#99 (not found)')).toBeInTheDocument();
  });

  it('never offers the monitor being edited as its own dependency', async () => {
    const { input } = renderPicker([], { type: 'monitor', id: 6 });
    await userEvent.click(input);
    expect(await screen.findByRole('option', { name: 'Core router' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Shop API' })).toBeNull();
  });

  it('shows the error it is given (a refused cycle) under the field', () => {
    renderWithProviders(<DependencyPicker value={[]} onChange={vi.fn()} error="dependsOn would make a cycle: a → b → a" />);
    expect(screen.getByText('dependsOn would make a cycle: a → b → a')).toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import type { DependencyChainItem } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { DependencyChain } from './DependencyChain';

const item = (overrides: Partial<DependencyChainItem>): DependencyChainItem => ({
  ref: { type: 'monitor', id: 1 },
  name: 'Core router',
  status: 'down',
  active: true,
  unreachable: false,
  depth: 1,
  ...overrides,
});

describe('DependencyChain', () => {
  let answer: () => Response;

  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => (url === '/api/monitors/7/dependencies' ? Promise.resolve(answer()) : Promise.reject(new Error(url)))),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists what it depends on, transitively, and what depends on it, each linked with its status', async () => {
    answer = () =>
      jsonResponse(200, {
        success: true,
        dependencies: [
          item({}),
          item({ ref: { type: 'agent', id: 2 }, name: 'Edge host', status: 'inactive', unreachable: true, depth: 2 }),
        ],
        dependents: [item({ ref: { type: 'monitor', id: 8 }, name: 'Checkout', status: 'unreachable' })],
      });
    renderWithProviders(<DependencyChain target={{ type: 'monitor', id: 7 }} version="down" />);

    const router = await screen.findByTestId('dependency-monitor:1');
    expect(router).toHaveAttribute('data-status', 'down');
    expect(screen.getByRole('link', { name: 'Core router' })).toHaveAttribute('href', '/monitors/1');
    // An offline agent behind its own down dependency reads as unreachable, not offline.
    expect(screen.getByTestId('dependency-agent:2')).toHaveTextContent('Unreachable');
    expect(screen.getByRole('link', { name: 'Edge host' })).toHaveAttribute('href', '/agents/2');
    expect(screen.getByText('1 dependent')).toBeInTheDocument();
    expect(screen.getByTestId('dependent-monitor:8')).toHaveTextContent('Unreachable');
  });

  it('says when there is nothing on either side', async () => {
    answer = () => jsonResponse(200, { success: true, dependencies: [], dependents: [] });
    renderWithProviders(<DependencyChain target={{ type: 'monitor', id: 7 }} version="up" />);
    expect(await screen.findByText('Depends on nothing')).toBeInTheDocument();
    expect(screen.getByText('Nothing depends on it')).toBeInTheDocument();
  });

  it('offers a retry when the chain cannot be read', async () => {
    answer = () => jsonResponse(500, { success: false, message: 'boom' });
    renderWithProviders(<DependencyChain target={{ type: 'monitor', id: 7 }} version="up" />);
    expect(await screen.findByText('Could not load the dependencies')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

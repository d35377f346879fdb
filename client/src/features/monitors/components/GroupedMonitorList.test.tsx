import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MonitorDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeMonitor, monitorsPage } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { GroupedMonitorList } from './GroupedMonitorList';

describe('GroupedMonitorList', () => {
  const web = makeMonitor({ id: 1, name: 'Web', type: 'group', group_rule: 'any', member_count: 2, status: 'down' });
  const api = makeMonitor({ id: 2, name: 'API', parent_id: 1, status: 'down' });
  const inner = makeMonitor({ id: 3, name: 'Backends', type: 'group', group_rule: 'all', member_count: 1, parent_id: 1 });
  const db = makeMonitor({ id: 4, name: 'DB', parent_id: 3 });
  const alone = makeMonitor({ id: 5, name: 'Blog' });
  const all: MonitorDto[] = [web, api, inner, db, alone];
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    signIn(MEMBER);
    fetchMock = vi.fn((url: string) => {
      const query = new URL(url, 'http://localhost').searchParams;
      const parent = query.get('parentId');
      const shown = all.filter((m) => (query.get('topLevel') === 'true' ? m.parent_id === null : m.parent_id === Number(parent)));
      return Promise.resolve(jsonResponse(200, monitorsPage(shown)));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const reads = () => fetchMock.mock.calls.map(([url]) => String(url));

  it('shows monitors in no group, a group reading as its member count, and opens groups level by level', async () => {
    renderWithProviders(<GroupedMonitorList refreshKey={0} />);
    const row = await screen.findByTestId('grouped-row-1');
    expect(row).toHaveTextContent('Web');
    expect(row).toHaveTextContent('2 members');
    expect(screen.getByTestId('grouped-row-5')).toHaveTextContent('Blog');
    expect(screen.queryByTestId('grouped-row-2')).toBeNull();
    expect(reads()).toEqual([expect.stringContaining('topLevel=true')]);

    await userEvent.click(within(row).getByTestId('grouped-toggle-1'));
    expect(await screen.findByTestId('grouped-row-2')).toHaveTextContent('API');
    expect(reads()).toContainEqual(expect.stringContaining('parentId=1'));
    // A nested group opens in turn; its members are read only then.
    expect(reads().some((url) => url.includes('parentId=3'))).toBe(false);
    await userEvent.click(screen.getByTestId('grouped-toggle-3'));
    expect(await screen.findByTestId('grouped-row-4')).toHaveTextContent('DB');

    await userEvent.click(screen.getByTestId('grouped-toggle-1'));
    expect(screen.queryByTestId('grouped-row-2')).toBeNull();
  });
});

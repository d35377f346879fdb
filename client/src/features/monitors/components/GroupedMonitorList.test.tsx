import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MonitorDto } from '@vigil/proto';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pushHandlers } from '../../../realtime/handlers';
import { makeCheck, makeMonitor, monitorsPage } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { type GroupedFilters, GroupedMonitorList } from './GroupedMonitorList';

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

  const statusOf = (id: number) => screen.getByTestId(`grouped-row-${id}`).querySelector('[data-status]')?.getAttribute('data-status');
  const pushStatus = (monitorId: number, previous: MonitorDto['status'], status: MonitorDto['status']) =>
    act(() =>
      pushHandlers()['monitor.status_changed']({
        monitorId,
        name: `#${monitorId}`,
        previous,
        status,
        check: makeCheck({ status: status === 'down' ? 'down' : 'up', checked_at: '2030-01-01T00:00:00.000Z' }),
        changed_at: '2030-01-01T00:00:00.000Z',
      }),
    );

  it('follows pushed status changes of the rows it shows, at the top and inside an opened group, without reading again', async () => {
    renderWithProviders(<GroupedMonitorList refreshKey={0} />);
    await screen.findByTestId('grouped-row-5');
    await userEvent.click(screen.getByTestId('grouped-toggle-1'));
    await screen.findByTestId('grouped-row-2');
    const readsBefore = reads().length;

    pushStatus(5, 'up', 'down');
    pushStatus(2, 'down', 'up');
    pushStatus(1, 'down', 'up');

    expect(statusOf(5)).toBe('down');
    expect(statusOf(2)).toBe('up');
    expect(statusOf(1)).toBe('up');
    expect(reads()).toHaveLength(readsBefore);
  });

  it('reads the top level with the list filters, the members of an opened group without them', async () => {
    function Harness() {
      const [filters, setFilters] = useState<GroupedFilters>({ filter: 'active', type: 'group', status: 'down', search: ' web ' });
      return (
        <>
          <button onClick={() => setFilters({ filter: 'all', type: 'all', status: 'up', search: '' })}>other filter</button>
          <GroupedMonitorList refreshKey={0} filters={filters} />
        </>
      );
    }
    renderWithProviders(<Harness />);
    await screen.findByTestId('grouped-row-1');
    const top = new URL(reads()[0], 'http://localhost').searchParams;
    expect(Object.fromEntries(top)).toMatchObject({ topLevel: 'true', filter: 'active', type: 'group', status: 'down', search: 'web' });

    await userEvent.click(screen.getByTestId('grouped-toggle-1'));
    await screen.findByTestId('grouped-row-2');
    const members = new URL(
      reads().find((url) => url.includes('parentId=1'))!,
      'http://localhost',
    ).searchParams;
    expect([...members.keys()].sort()).toEqual(['page', 'pageSize', 'parentId']);

    // Another filter starts the top level again, from its first page.
    await userEvent.click(screen.getByText('other filter'));
    await vi.waitFor(() => expect(reads().at(-1)).toContain('status=up'));
    expect(reads().at(-1)).toContain('page=1&');
    expect(reads().at(-1)).toContain('topLevel=true');
  });
});

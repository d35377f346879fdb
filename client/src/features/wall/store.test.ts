import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { makeChange, makePublicAgent, makePublicMonitor, makeWallData } from '../../test/status';
import { byProblem } from '@vigil/proto';
import { CHANGED_DELAY_MS, useWallStore, WALL_FEED_LENGTH } from './store';

describe('wall store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    useWallStore.getState().open('vgd_key');
    fetchMock = vi.fn(() =>
      Promise.resolve(
        jsonResponse(200, {
          success: true,
          data: makeWallData({
            monitors: [
              makePublicMonitor({ id: 1, name: 'alpha' }),
              makePublicMonitor({ id: 2, name: 'beta' }),
              makePublicMonitor({ id: 3, name: 'gamma' }),
            ],
            agents: [makePublicAgent({ id: 1, name: 'db' }), makePublicAgent({ id: 2, name: 'web' })],
            recent_changes: [makeChange({ id: 9, at: '2025-03-01T09:00:00.000Z' })],
          }),
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
  });

  const names = (items: { name: string }[]) => items.map((item) => item.name);

  it('reads the wall with the display key and without the session token', async () => {
    localStorage.setItem('token', 'session');
    await useWallStore.getState().load();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/wall/data');
    expect(init.headers).toMatchObject({ 'X-Display-Key': 'vgd_key' });
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(useWallStore.getState().status).toBe('ready');
  });

  it('moves a monitor that goes down to the front, puts the change on top of the feed and updates the overall status', async () => {
    const sut = useWallStore.getState();
    await sut.load();
    sut.applyChange(makeChange({ kind: 'monitor', id: 3, name: 'gamma', previous: 'up', status: 'down', at: '2025-03-01T10:00:00.000Z' }));

    const data = useWallStore.getState().data!;
    expect(names(data.monitors)).toEqual(['gamma', 'alpha', 'beta']);
    expect(data.monitors[0].status).toBe('down');
    expect(data.recent_changes.map((change) => change.id)).toEqual([3, 9]);
    expect(data.overall).toBe('degraded');
    expect(data.updated_at).toBe('2025-03-01T10:00:00.000Z');
  });

  it('puts it back in name order when it recovers', async () => {
    const sut = useWallStore.getState();
    await sut.load();
    sut.applyChange(makeChange({ kind: 'monitor', id: 3, status: 'down' }));
    sut.applyChange(makeChange({ kind: 'monitor', id: 3, previous: 'down', status: 'up' }));
    expect(names(useWallStore.getState().data!.monitors)).toEqual(['alpha', 'beta', 'gamma']);
    expect(useWallStore.getState().data!.overall).toBe('operational');
  });

  it('sorts agents apart from monitors: offline first, then connecting, then online', async () => {
    const sut = useWallStore.getState();
    await sut.load();
    sut.applyChange(makeChange({ kind: 'agent', id: 2, name: 'web', previous: 'active', status: 'connecting' }));
    expect(names(useWallStore.getState().data!.agents)).toEqual(['web', 'db']);
    sut.applyChange(makeChange({ kind: 'agent', id: 1, name: 'db', previous: 'active', status: 'inactive' }));
    expect(names(useWallStore.getState().data!.agents)).toEqual(['db', 'web']);
    expect(names(useWallStore.getState().data!.monitors)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('keeps the feed at its length', async () => {
    const sut = useWallStore.getState();
    await sut.load();
    for (let index = 0; index < WALL_FEED_LENGTH + 5; index += 1) sut.applyChange(makeChange({ id: 1, status: index % 2 ? 'up' : 'down' }));
    expect(useWallStore.getState().data!.recent_changes).toHaveLength(WALL_FEED_LENGTH);
  });

  it('reads again for a change about an item it does not hold, and once for a burst of wall.changed', async () => {
    vi.useFakeTimers();
    const sut = useWallStore.getState();
    await sut.load();
    sut.applyChange(makeChange({ kind: 'monitor', id: 44, name: 'new one' }));
    expect(useWallStore.getState().data!.recent_changes[0].id).toBe(44);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(0);
    for (let index = 0; index < 10; index += 1) sut.applyChanged();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(CHANGED_DELAY_MS);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    vi.useRealTimers();
  });

  it('takes a 401 on a display key as a refused key, and stops reading', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(401, { success: false, message: 'This display link is invalid or was revoked', code: 'wall.keyInvalid' }),
    );
    const sut = useWallStore.getState();
    await sut.load();
    expect(useWallStore.getState().rejected).toBe(true);
    await sut.load();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('keeps the wall on screen when a background read fails', async () => {
    const sut = useWallStore.getState();
    await sut.load();
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await sut.load({ quiet: true });
    expect(useWallStore.getState()).toMatchObject({ status: 'ready', rejected: false });
  });

  it.each([
    [
      ['up', 'down', 'pending'],
      ['down', 'pending', 'up'],
    ],
    [
      ['active', 'connecting', 'inactive'],
      ['inactive', 'connecting', 'active'],
    ],
  ])('orders %j as %j', (statuses, expected) => {
    const items = statuses.map((status, index) => makePublicMonitor({ id: index, name: 'same', status: status as never }));
    expect(items.sort(byProblem).map((item) => item.status)).toEqual(expected);
  });
});

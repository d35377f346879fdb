import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeCheck } from '../../test/monitors';
import { jsonResponse } from '../../test/render';
import { makeDashboardSummary as makeSummary } from '../../test/status';
import { FEED_LENGTH, SETTLE_DELAY_MS, useDashboardStore } from './store';

describe('dashboard store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.useFakeTimers();
    useDashboardStore.setState({ summary: null, status: 'idle', error: null });
    fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, { success: true, dashboard: makeSummary() })));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.useRealTimers());

  it('moves a monitor between the counts and puts the transition on top of the feed at once', async () => {
    const sut = useDashboardStore.getState();
    await sut.load();
    sut.applyMonitorStatusChanged({
      monitorId: 3,
      name: 'web',
      previous: 'up',
      status: 'down',
      check: makeCheck({ status: 'down' }),
      changed_at: '2025-03-01T10:00:00.000Z',
    });

    const summary = useDashboardStore.getState().summary!;
    expect(summary.monitors).toMatchObject({ up: 7, down: 3, total: 12 });
    expect(summary.recent_changes[0]).toEqual({
      kind: 'monitor',
      id: 3,
      name: 'web',
      previous: 'up',
      status: 'down',
      at: '2025-03-01T10:00:00.000Z',
    });
    expect(summary.recent_changes).toHaveLength(2);
  });

  it('moves an agent between the counts', async () => {
    const sut = useDashboardStore.getState();
    await sut.load();
    sut.applyAgentStatusChanged({ agentId: 2, name: 'db', previous: 'active', status: 'inactive', changed_at: '2025-03-01T10:00:00.000Z' });
    expect(useDashboardStore.getState().summary!.agents).toMatchObject({ active: 2, inactive: 2, total: 4 });
    expect(useDashboardStore.getState().summary!.recent_changes[0]).toMatchObject({ kind: 'agent', id: 2, status: 'inactive' });
  });

  it('settles a burst of pushes with one read of the summary', async () => {
    const sut = useDashboardStore.getState();
    await sut.load();
    for (let index = 0; index < 5; index += 1) {
      sut.applyMonitorStatusChanged({
        monitorId: index,
        name: `m${index}`,
        previous: 'up',
        status: 'down',
        check: makeCheck(),
        changed_at: '2025-03-01T10:00:00.000Z',
      });
    }
    sut.applyMembershipChanged();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SETTLE_DELAY_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(useDashboardStore.getState().summary!.monitors.down).toBe(2);
  });

  it('keeps the feed at ten entries', async () => {
    const sut = useDashboardStore.getState();
    await sut.load();
    for (let index = 0; index < 15; index += 1) {
      sut.applyAgentStatusChanged({
        agentId: 1,
        name: 'db',
        previous: 'active',
        status: 'inactive',
        changed_at: `2025-03-01T10:${String(index).padStart(2, '0')}:00.000Z`,
      });
    }
    expect(useDashboardStore.getState().summary!.recent_changes).toHaveLength(FEED_LENGTH);
  });

  it('ignores pushes before the first read', () => {
    useDashboardStore
      .getState()
      .applyAgentStatusChanged({ agentId: 1, name: 'db', previous: 'active', status: 'inactive', changed_at: '' });
    expect(useDashboardStore.getState().summary).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

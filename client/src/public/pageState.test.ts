import type { PageItemEvent } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { makeComponent, makeGroup, makePageData } from './fixtures';
import { barDates, dayTone, initialPageState, type PageState, shownStatus, toneOf, withItem } from './pageState';

function readyState(): PageState {
  return {
    ...initialPageState,
    phase: 'ready',
    data: makePageData({
      groups: [
        makeGroup({ index: 0, items: [makeComponent({ id: 1 }), makeComponent({ type: 'agent', id: 1, name: 'db', status: 'active' })] }),
        makeGroup({ index: 1, name: 'Edge', items: null, size: 500, counts: { up: 500 } }),
      ],
    }),
    reads: { 1: { items: [makeComponent({ id: 9, name: 'edge-9' })], total: 500, loading: false, failed: false } },
  };
}

const push = (overrides: Partial<PageItemEvent>): PageItemEvent => ({
  slug: 'shop',
  component: makeComponent({ id: 1, status: 'down' }),
  group: { index: 0, counts: { up: 1, down: 1 }, status: 'outage' },
  overall: 'outage',
  ...overrides,
});

describe('a pushed component change', () => {
  it('replaces the inline component and takes the group summary and banner of the push', () => {
    const next = withItem(readyState(), push({}));
    const group = next.data!.groups[0];
    expect(group.items!.map((item) => [item.type, item.id, item.status])).toEqual([
      ['monitor', 1, 'down'],
      ['agent', 1, 'active'],
    ]);
    expect(group.counts).toEqual({ up: 1, down: 1 });
    expect(group.status).toBe('outage');
    expect(next.data!.overall).toBe('outage');
  });

  it('replaces a component read on demand and updates a collapsed group without its items', () => {
    const before = readyState();
    const next = withItem(
      before,
      push({
        component: makeComponent({ id: 9, name: 'edge-9', status: 'degraded' }),
        group: { index: 1, counts: { up: 499, degraded: 1 }, status: 'degraded' },
      }),
    );
    expect(next.reads[1].items[0].status).toBe('degraded');
    expect(next.data!.groups[1]).toMatchObject({ items: null, counts: { up: 499, degraded: 1 }, status: 'degraded' });
    // The other group is left as it was.
    expect(next.data!.groups[0]).toBe(before.data!.groups[0]);
  });

  it('tells a monitor from an agent with the same id', () => {
    const next = withItem(readyState(), push({ component: makeComponent({ type: 'agent', id: 1, name: 'db', status: 'inactive' }) }));
    expect(next.data!.groups[0].items!.map((item) => item.status)).toEqual(['up', 'inactive']);
  });

  it('changes nothing before the page is read', () => {
    expect(withItem(initialPageState, push({}))).toBe(initialPageState);
  });
});

describe('the daily bars', () => {
  it('dates each entry, the last one the day of the update (UTC)', () => {
    expect(barDates(3, '2024-03-01T05:00:00.000Z')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
  });

  it.each([
    [100, false, 'up'],
    [99.9, false, 'up'],
    [99.5, false, 'degraded'],
    [95, true, 'degraded'],
    [94.99, false, 'down'],
    [null, false, 'none'],
    [null, true, 'maintenance'],
  ] as const)('colours %s %% (maintenance that day: %s) as %s', (uptime, maintenance, tone) => {
    expect(dayTone(uptime, maintenance)).toBe(tone);
  });
});

describe('a component status', () => {
  it.each([
    [{ status: 'up', active: true }, 'up', 'up'],
    [{ status: 'down', active: false }, 'paused', 'paused'],
    [{ status: 'maintenance', active: false }, 'maintenance', 'maintenance'],
    [{ status: 'active', active: true }, 'active', 'up'],
    [{ status: 'inactive', active: true }, 'inactive', 'down'],
    [{ status: 'connecting', active: true }, 'connecting', 'pending'],
    [{ status: 'unreachable', active: true }, 'unreachable', 'unreachable'],
  ] as const)('%j is shown as %s in the colour of %s', (component, shown, tone) => {
    expect(shownStatus(component)).toBe(shown);
    expect(toneOf(shownStatus(component))).toBe(tone);
  });
});

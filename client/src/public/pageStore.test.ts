import type { PageItemEvent, StatusPageDataResponse } from '@vigil/proto';
import { describe, expect, it, vi } from 'vitest';
import type { pageApi } from './api';
import { makeComponent, makeGroup, makePageData } from './fixtures';
import { PageStore } from './pageStore';

/** An API whose data reads answer only when the test says so. */
function controlledApi() {
  const pending: Array<(answer: StatusPageDataResponse) => void> = [];
  const api = {
    data: vi.fn(() => new Promise<StatusPageDataResponse>((resolve) => pending.push(resolve))),
    group: vi.fn(),
    unlock: vi.fn(),
    subscribe: vi.fn(),
  };
  return { api: api as unknown as typeof pageApi, answer: (index: number, answer: StatusPageDataResponse) => pending[index](answer) };
}

const page = (status: 'up' | 'down') => ({
  success: true as const,
  data: makePageData({ groups: [makeGroup({ items: [makeComponent({ id: 1, status }), makeComponent({ id: 2, name: 'Web' })] })] }),
});

const pushDown: PageItemEvent = {
  slug: 'shop',
  component: makeComponent({ id: 1, status: 'down' }),
  group: { index: 0, counts: { up: 1, down: 1 }, status: 'outage' },
  overall: 'outage',
};

const statusOf = (sut: PageStore, id: number) => sut.getState().data?.groups[0].items?.find((item) => item.id === id)?.status;

describe('the page store', () => {
  it('keeps a component pushed while the first read was on its way, over the read’s older answer', async () => {
    const { api, answer } = controlledApi();
    const sut = new PageStore('shop', api);
    const loading = sut.load();
    sut.applyItem(pushDown);
    answer(0, page('up'));
    await loading;
    expect(statusOf(sut, 1)).toBe('down');
    expect(sut.getState().data?.overall).toBe('outage');
  });

  it('keeps a push made during a quiet re-read, and takes the re-read’s news for the rest', async () => {
    const { api, answer } = controlledApi();
    const sut = new PageStore('shop', api);
    const first = sut.load();
    answer(0, page('up'));
    await first;
    const again = sut.load({ quiet: true });
    expect(sut.getState().phase).toBe('ready');
    sut.applyItem(pushDown);
    const reread = page('up');
    reread.data.groups[0].items![1] = makeComponent({ id: 2, name: 'Web (renamed)' });
    answer(1, reread);
    await again;
    expect(statusOf(sut, 1)).toBe('down');
    expect(sut.getState().data?.groups[0].items?.[1].name).toBe('Web (renamed)');
  });

  it('lets a newer read win over one still on its way', async () => {
    const { api, answer } = controlledApi();
    const sut = new PageStore('shop', api);
    const older = sut.load();
    const newer = sut.load();
    answer(1, page('down'));
    answer(0, page('up'));
    await Promise.all([older, newer]);
    expect(statusOf(sut, 1)).toBe('down');
  });

  it('ignores pushes for another page', async () => {
    const { api, answer } = controlledApi();
    const sut = new PageStore('shop', api);
    const loading = sut.load();
    answer(0, page('up'));
    await loading;
    sut.applyItem({ ...pushDown, slug: 'other' });
    expect(statusOf(sut, 1)).toBe('up');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLiveCache } from '../../live/cache';
import { acknowledged, alertsPage, makeAlert } from '../../test/alerts';
import { jsonResponse, MEMBER, signIn } from '../../test/render';
import { alertsOf, ALERTS_RESYNC_MS, takeAlert, useAlertsStore, useOpenAlertsStore } from './store';

const initialPage = useAlertsStore.getState();
const initialOpen = useOpenAlertsStore.getState();

describe('alert stores', () => {
  let reads: string[];
  let answer: () => unknown;

  beforeEach(() => {
    clearLiveCache();
    useAlertsStore.setState(initialPage, true);
    useOpenAlertsStore.setState(initialOpen, true);
    signIn(MEMBER);
    reads = [];
    answer = () => alertsPage([makeAlert({ id: 1 })]);
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        reads.push(url);
        return Promise.resolve(jsonResponse(200, answer()));
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reads the page with its filters as the server names them', async () => {
    await useAlertsStore.getState().load({ state: 'open', kind: 'agent', search: ' web ' });
    expect(reads).toEqual(['/api/alerts?page=1&pageSize=20&state=open&kind=agent&search=web']);
    expect(useAlertsStore.getState().rows.map((alert) => alert.id)).toEqual([1]);
  });

  it('shows a pushed acknowledgement at once and re-reads once for a burst of new alerts', async () => {
    await useAlertsStore.getState().load();
    vi.useFakeTimers();
    takeAlert(acknowledged(makeAlert({ id: 1 }), 'on it'));
    expect(useAlertsStore.getState().rows[0]).toMatchObject({ state: 'acknowledged', ack_note: 'on it' });

    takeAlert(makeAlert({ id: 2 }));
    takeAlert(makeAlert({ id: 3 }));
    expect(reads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(ALERTS_RESYNC_MS);
    expect(reads).toHaveLength(2);
  });

  it('does not let an older read undo a pushed acknowledgement', async () => {
    await useAlertsStore.getState().load();
    takeAlert(acknowledged(makeAlert({ id: 1 })));
    await useAlertsStore.getState().load({}, { quiet: true });
    expect(useAlertsStore.getState().rows[0].state).toBe('acknowledged');
  });

  it('keeps the open alerts of each target, newest first, until they resolve', async () => {
    answer = () =>
      alertsPage([
        makeAlert({ id: 1, opened_at: '2025-03-01T09:00:00.000Z' }),
        makeAlert({ id: 2, metric: 'degraded', opened_at: '2025-03-01T11:00:00.000Z' }),
        makeAlert({ id: 3, target_kind: 'agent', target_id: 5 }),
      ]);
    await useOpenAlertsStore.getState().loadTarget('monitor', 5);
    expect(reads).toEqual(['/api/alerts?page=1&pageSize=20&state=open&kind=monitor&targetId=5']);
    const ofMonitor = () => alertsOf(useOpenAlertsStore.getState().alerts, 'monitor', 5).map((alert) => alert.id);
    expect(ofMonitor()).toEqual([2, 1]);

    takeAlert(makeAlert({ id: 2, state: 'resolved', closed_at: '2025-03-01T11:30:00.000Z' }));
    expect(ofMonitor()).toEqual([1]);
    // A new alert pushed meanwhile is offered at once.
    takeAlert(makeAlert({ id: 4, opened_at: '2025-03-01T12:00:00.000Z' }));
    expect(ofMonitor()).toEqual([4, 1]);
  });
});

import type { MaintenanceRow } from './maintenance.types';
import { pageMaintenance, type PageViewInput } from './page-view';

const NOW = new Date('2026-06-10T12:00:00Z');

function row(id: number, patch: Partial<MaintenanceRow> = {}): MaintenanceRow {
  return {
    id,
    key: `window-${id}`,
    title: `Window ${id}`,
    description: 'Upgrading **storage**',
    strategy: 'single',
    timezone: 'UTC',
    start_at: null,
    end_at: null,
    weekdays: [],
    days_of_month: [],
    start_time: null,
    end_time: null,
    interval_days: null,
    cron: null,
    duration_minutes: null,
    enabled: true,
    notify: false,
    end_when_healthy_minutes: null,
    all_targets: false,
    applied_start: null,
    applied_end: null,
    applied_at: null,
    next_start: null,
    next_end: null,
    skip_until: null,
    created_at: NOW,
    updated_at: NOW,
    ...patch,
  };
}

const components = new Map([
  ['m1', 'API'],
  ['m2', 'Web'],
  ['a7', 'db-host'],
]);

function view(patch: Partial<PageViewInput>) {
  return pageMaintenance({
    now: NOW,
    sinceDays: 30,
    components,
    windows: [],
    spans: [],
    covered: new Map(),
    html: () => '<p>x</p>',
    ...patch,
  });
}

describe('pageMaintenance', () => {
  it('shows active then scheduled windows with the names of the page components they cover, none beyond the page', () => {
    const active = row(1, { applied_start: new Date('2026-06-10T11:00:00Z'), applied_end: new Date('2026-06-10T13:00:00Z') });
    const scheduled = row(2, { next_start: new Date('2026-06-12T02:00:00Z'), next_end: null });
    const { windows } = view({
      windows: [active, scheduled],
      covered: new Map([
        [1, new Set(['m2', 'a7', 'm99'])],
        [2, new Set(['m1', 'm2', 'a7'])],
      ]),
    });
    expect(windows).toEqual([
      {
        id: 1,
        title: 'Window 1',
        description_html: '<p>x</p>',
        phase: 'active',
        start: '2026-06-10T11:00:00.000Z',
        end: '2026-06-10T13:00:00.000Z',
        components: ['db-host', 'Web'],
      },
      // Covering every component of the page: named as the whole page (no names).
      {
        id: 2,
        title: 'Window 2',
        description_html: '<p>x</p>',
        phase: 'scheduled',
        start: '2026-06-12T02:00:00.000Z',
        end: null,
        components: [],
      },
    ]);
  });

  it('marks each UTC day a span touched within the range, once per window and day, with component keys', () => {
    const { marks } = view({
      sinceDays: 7,
      spans: [
        // Started before the range: only its days within it.
        { maintenance_id: 3, title: 'Long', start_at: new Date('2026-05-01T00:00:00Z'), end_at: new Date('2026-06-05T00:00:00Z') },
        { maintenance_id: 4, title: 'Night', start_at: new Date('2026-06-08T23:00:00Z'), end_at: new Date('2026-06-09T01:00:00Z') },
        { maintenance_id: 4, title: 'Night', start_at: new Date('2026-06-09T23:00:00Z'), end_at: new Date('2026-06-09T23:30:00Z') },
        // Running now.
        { maintenance_id: 5, title: 'Now', start_at: new Date('2026-06-10T11:00:00Z'), end_at: null },
      ],
      covered: new Map([
        [3, new Set(['m1'])],
        [4, new Set<string>()],
        [5, new Set(['a7'])],
      ]),
    });
    expect(marks.map((m) => [m.date, m.id, m.components])).toEqual([
      ['2026-06-04', 3, ['m1']],
      ['2026-06-08', 4, []],
      ['2026-06-09', 4, []],
      ['2026-06-10', 5, ['a7']],
    ]);
    expect(marks[0]).toMatchObject({ kind: 'maintenance', title: 'Long' });
  });
});

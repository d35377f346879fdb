import { assemblePageIncidents as sut, rangeStart } from './incident-page';
import type { IncidentRow, IncidentUpdateRow } from './incidents.repository';

const NOW = new Date('2026-03-10T12:00:00Z');

function incident(id: number, overrides: Partial<IncidentRow> = {}): IncidentRow {
  return {
    id,
    title: `Incident ${id}`,
    impact: 'major',
    status: 'investigating',
    published: true,
    monitors: [],
    agents: [],
    pages: [],
    page_ids: [],
    created_at: new Date('2026-03-10T08:00:00Z'),
    updated_at: new Date('2026-03-10T08:00:00Z'),
    resolved_at: null,
    ...overrides,
  };
}

function update(incidentId: number, id: number, at: string, status: IncidentUpdateRow['status'] = 'investigating'): IncidentUpdateRow {
  return { id, incident_id: incidentId, status, message: `m${id}`, html: `<p>m${id}</p>\n`, author: 'alice', created_at: new Date(at) };
}

const COMPONENTS = new Map([
  ['m1', 'Shop'],
  ['a7', 'db-1'],
]);

describe('a status page incidents (assemblePageIncidents)', () => {
  it('splits unresolved from resolved, newest first each', () => {
    const rows = [
      incident(1, { created_at: new Date('2026-03-09T10:00:00Z'), resolved_at: new Date('2026-03-09T11:00:00Z') }),
      incident(2, { created_at: new Date('2026-03-10T09:00:00Z') }),
      incident(3, { created_at: new Date('2026-03-08T10:00:00Z'), resolved_at: new Date('2026-03-08T12:00:00Z') }),
      incident(4, { created_at: new Date('2026-03-10T10:00:00Z') }),
    ];
    const { active, history } = sut(rows, new Map(), COMPONENTS, 30, NOW);
    expect(active.map((i) => i.id)).toEqual([4, 2]);
    expect(history.map((i) => i.id)).toEqual([1, 3]);
  });

  it('names only the components the page shows, never ids or the author', () => {
    const row = incident(1, { monitors: [1, 2], agents: [7, 8] });
    const updates = new Map([[1, [update(1, 10, '2026-03-10T08:00:00Z'), update(1, 11, '2026-03-10T09:00:00Z', 'identified')]]]);
    const { active } = sut([row], updates, COMPONENTS, 30, NOW);
    expect(active).toEqual([
      {
        id: 1,
        title: 'Incident 1',
        impact: 'major',
        status: 'investigating',
        created_at: '2026-03-10T08:00:00.000Z',
        resolved_at: null,
        components: ['Shop', 'db-1'],
        updates: [
          { status: 'identified', html: '<p>m11</p>\n', created_at: '2026-03-10T09:00:00.000Z' },
          { status: 'investigating', html: '<p>m10</p>\n', created_at: '2026-03-10T08:00:00.000Z' },
        ],
      },
    ]);
    expect(JSON.stringify(active)).not.toContain('alice');
  });

  it.each<[string, Partial<IncidentRow>, number, string[]]>([
    [
      'an unresolved incident marks every day up to today',
      { created_at: new Date('2026-03-08T23:30:00Z') },
      30,
      ['2026-03-08', '2026-03-09', '2026-03-10'],
    ],
    [
      'one resolved the same day marks that day',
      { created_at: new Date('2026-03-05T01:00:00Z'), resolved_at: new Date('2026-03-05T02:00:00Z') },
      30,
      ['2026-03-05'],
    ],
    [
      'one crossing midnight UTC marks both days',
      { created_at: new Date('2026-03-05T23:50:00Z'), resolved_at: new Date('2026-03-06T00:10:00Z') },
      30,
      ['2026-03-05', '2026-03-06'],
    ],
    [
      'one begun before the range marks only days inside it',
      { created_at: new Date('2026-01-01T00:00:00Z'), resolved_at: new Date('2026-03-09T00:00:00Z') },
      3,
      ['2026-03-08', '2026-03-09'],
    ],
    [
      'one resolved before the range marks nothing',
      { created_at: new Date('2026-02-01T00:00:00Z'), resolved_at: new Date('2026-02-02T00:00:00Z') },
      30,
      [],
    ],
    [
      'one across the end of February (leap years aside) marks each date',
      { created_at: new Date('2026-02-27T12:00:00Z'), resolved_at: new Date('2026-03-01T12:00:00Z') },
      30,
      ['2026-02-27', '2026-02-28', '2026-03-01'],
    ],
  ])('%s', (_, dates, days, expected) => {
    const { marks } = sut([incident(5, dates)], new Map(), COMPONENTS, days, NOW);
    expect(marks.map((mark) => mark.date)).toEqual(expected);
    for (const mark of marks) expect(mark).toMatchObject({ kind: 'incident', id: 5, title: 'Incident 5' });
  });

  it("marks with the page's components it names, or none for the whole page", () => {
    const rows = [incident(1, { monitors: [1, 99] }), incident(2, { agents: [42] }), incident(3)];
    const { marks } = sut(rows, new Map(), COMPONENTS, 30, NOW);
    expect(marks.map(({ id, components }) => [id, components])).toEqual([
      [1, ['m1']],
      [2, []],
      [3, []],
    ]);
  });

  it('counts the range in UTC dates ending today', () => {
    expect(rangeStart(new Date('2026-03-10T23:59:59Z'), 1).toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(rangeStart(new Date('2028-03-01T00:00:00Z'), 3).toISOString()).toBe('2028-02-28T00:00:00.000Z');
    expect(rangeStart(new Date('2026-03-01T00:00:00Z'), 90).toISOString()).toBe('2025-12-02T00:00:00.000Z');
  });
});

import type { IncidentDto, IncidentUpdateDto, MaintenanceDto } from '@vigil/proto';
import { incidentNotice, maintenanceNotice, noticePayload, pageUrl, type StoredNotice } from './subscription-notices';

const PAGE = { slug: 'shop', title: 'Shop status' };

function update(id: number, status: IncidentUpdateDto['status']): IncidentUpdateDto {
  return {
    id,
    status,
    message: `**update ${id}**`,
    html: `<p><strong>update ${id}</strong></p>`,
    created_at: `2026-03-0${id}T10:00:00.000Z`,
    author: 'alice',
  };
}

function incident(updates: IncidentUpdateDto[], overrides: Partial<IncidentDto> = {}): IncidentDto {
  return {
    id: 12,
    title: 'Checkout errors',
    impact: 'major',
    status: updates[updates.length - 1]?.status ?? 'investigating',
    published: true,
    monitors: [3, 4],
    agents: [9],
    pages: ['shop', 'internal'],
    updates,
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    resolved_at: null,
    ...overrides,
  };
}

function maintenance(overrides: Partial<MaintenanceDto> = {}): MaintenanceDto {
  return {
    id: 5,
    key: 'database-upgrade',
    title: 'Database upgrade',
    description: 'We upgrade <b>PostgreSQL</b>.',
    enabled: true,
    phase: 'scheduled',
    current: { start: '2026-03-10T02:00:00.000Z', end: '2026-03-10T04:00:00.000Z' },
    scope: { all: false, monitors: [3], agents: [], groups: [] },
    pages: ['shop'],
    notify: false,
    end_when_healthy_minutes: null,
    strategy: 'single',
    timezone: 'UTC',
    start_at: '2026-03-10T02:00:00.000Z',
    end_at: '2026-03-10T04:00:00.000Z',
    weekdays: [],
    days_of_month: [],
    start_time: null,
    end_time: null,
    interval_days: null,
    cron: null,
    duration_minutes: null,
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

describe('incident notices', () => {
  it.each<[string, string, IncidentUpdateDto[]]>([
    ['the first update', 'incident.created', [update(1, 'investigating')]],
    ['a later update', 'incident.updated', [update(1, 'investigating'), update(2, 'monitoring')]],
    ['the resolving update', 'incident.resolved', [update(1, 'investigating'), update(2, 'resolved')]],
  ])('announce %s as %s', (_case, type, updates) => {
    expect(incidentNotice('updated', incident(updates), PAGE, [])?.notice.type).toBe(type);
  });

  it('carry the newest update only, public fields only (no author, no ids of monitors, agents or other pages)', () => {
    const drafted = incidentNotice('updated', incident([update(1, 'investigating'), update(2, 'identified')]), PAGE, ['API']);
    expect(drafted).toEqual({
      key: 'incident:12:update:2',
      notice: {
        type: 'incident.updated',
        page: PAGE,
        text: '**update 2**',
        incident: {
          id: 12,
          title: 'Checkout errors',
          impact: 'major',
          status: 'identified',
          created_at: '2026-03-01T10:00:00.000Z',
          resolved_at: null,
          components: ['API'],
          updates: [{ status: 'identified', html: '<p><strong>update 2</strong></p>', created_at: '2026-03-02T10:00:00.000Z' }],
        },
      },
    });
    expect(JSON.stringify(drafted)).not.toMatch(/alice|internal|"monitors"|"agents"|"pages"/);
  });

  it('key a notice by the newest update, so an edit that adds none sends nothing new', () => {
    const before = incidentNotice('created', incident([update(1, 'investigating')]), PAGE, []);
    const edited = incidentNotice('updated', incident([update(1, 'investigating')], { title: 'Renamed' }), PAGE, []);
    expect(edited?.key).toBe(before?.key);
  });

  it.each([
    ['a draft', incident([update(1, 'investigating')], { published: false }), 'updated'],
    ['a deletion', incident([update(1, 'investigating')]), 'deleted'],
    ['an incident without updates', incident([]), 'created'],
  ] as const)('send nothing for %s', (_case, dto, action) => {
    expect(incidentNotice(action, dto, PAGE, [])).toBeNull();
  });
});

describe('maintenance notices', () => {
  const now = new Date('2026-03-10T04:00:05.000Z');

  it('announce a window created ahead as scheduled, with its next occurrence and rendered description', () => {
    const drafted = maintenanceNotice('created', maintenance(), PAGE, ['API'], now);
    expect(drafted?.key).toBe('maintenance:5:scheduled');
    expect(drafted?.notice).toMatchObject({
      type: 'maintenance.scheduled',
      text: 'We upgrade <b>PostgreSQL</b>.',
      maintenance: { id: 5, phase: 'scheduled', start: '2026-03-10T02:00:00.000Z', end: '2026-03-10T04:00:00.000Z', components: ['API'] },
    });
    // The description's raw HTML stays text.
    expect(drafted?.notice).toMatchObject({ maintenance: { description_html: '<p>We upgrade &lt;b&gt;PostgreSQL&lt;/b&gt;.</p>\n' } });
  });

  it('announce a window created already on as started, under the key its start event would use', () => {
    const active = maintenance({ phase: 'active' });
    expect(maintenanceNotice('created', active, PAGE, [], now)?.key).toBe(maintenanceNotice('started', active, PAGE, [], now)?.key);
    expect(maintenanceNotice('created', active, PAGE, [], now)?.notice.type).toBe('maintenance.started');
  });

  it('announce each start of a recurring window once, by its occurrence', () => {
    const first = maintenanceNotice('started', maintenance({ phase: 'active' }), PAGE, [], now);
    const next = maintenanceNotice(
      'started',
      maintenance({ phase: 'active', current: { start: '2026-03-17T02:00:00.000Z', end: null } }),
      PAGE,
      [],
      now,
    );
    expect(first?.key).not.toBe(next?.key);
  });

  it('announce an end with the time it ended and no start', () => {
    const drafted = maintenanceNotice('ended', maintenance({ phase: 'ended', current: null }), PAGE, [], now);
    expect(drafted?.notice).toMatchObject({
      type: 'maintenance.ended',
      maintenance: { phase: 'ended', start: null, end: '2026-03-10T04:00:05.000Z' },
    });
  });

  it.each([
    ['a save', maintenance(), 'updated'],
    ['a deletion', maintenance(), 'deleted'],
    ['a window created switched off', maintenance({ enabled: false }), 'created'],
    ['a window created with nothing left to run', maintenance({ phase: 'ended', current: null }), 'created'],
  ] as const)('send nothing for %s', (_case, dto, action) => {
    expect(maintenanceNotice(action, dto, PAGE, [], now)).toBeNull();
  });
});

describe('webhook payloads', () => {
  it('are the stored notice without its mail text, with the page address and the unsubscribe link', () => {
    const drafted = incidentNotice('created', incident([update(1, 'investigating')]), PAGE, [])!;
    const page = { ...PAGE, url: pageUrl('https://status.example.com', 'shop') };
    const payload = noticePayload(drafted.notice, page, 'https://status.example.com/api/subscriptions/unsubscribe?token=x');
    expect(payload).toEqual({
      type: 'incident.created',
      page: { slug: 'shop', title: 'Shop status', url: 'https://status.example.com/status/shop' },
      incident: (drafted.notice as Extract<StoredNotice, { incident: unknown }>).incident,
      unsubscribe_url: 'https://status.example.com/api/subscriptions/unsubscribe?token=x',
    });
    expect(payload).not.toHaveProperty('text');
  });

  it('name the default page at /status', () => {
    expect(pageUrl('https://example.com', 'default')).toBe('https://example.com/status');
  });
});

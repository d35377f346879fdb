import type { IncidentDto, IncidentsResponse, IncidentUpdateDto } from '@vigil/proto';

export function makeUpdate(overrides: Partial<IncidentUpdateDto> = {}): IncidentUpdateDto {
  return {
    id: 100,
    status: 'investigating',
    message: 'We are looking into **errors** at checkout.',
    html: '<p>We are looking into <strong>errors</strong> at checkout.</p>',
    created_at: '2025-03-01T10:00:00.000Z',
    author: 'alice',
    ...overrides,
  };
}

/** A published, unresolved incident on the default page with one update, with overrides. */
export function makeIncident(overrides: Partial<IncidentDto> = {}): IncidentDto {
  return {
    id: 1,
    title: 'Checkout errors',
    impact: 'major',
    status: 'investigating',
    published: true,
    monitors: [5],
    agents: [],
    pages: ['default'],
    updates: [makeUpdate()],
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-01T10:00:00.000Z',
    resolved_at: null,
    ...overrides,
  };
}

export function incidentsPage(incidents: IncidentDto[], extra: Partial<IncidentsResponse> = {}): IncidentsResponse {
  return { success: true, incidents, total: incidents.length, page: 1, pageSize: 20, ...extra };
}

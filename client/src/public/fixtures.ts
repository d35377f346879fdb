import type { PageComponent, PublicIncident, PublicPageGroup, StatusPageData } from '@vigil/proto';

/** Test data for the public page's specs (never imported by the page itself). */
export function makeComponent(overrides: Partial<PageComponent> = {}): PageComponent {
  return {
    type: 'monitor',
    id: 1,
    name: 'API',
    status: 'up',
    active: true,
    uptime: 99.95,
    days: [100, 99.5, null, 90],
    ...overrides,
  };
}

export function makeGroup(overrides: Partial<PublicPageGroup> = {}): PublicPageGroup {
  const items = overrides.items === undefined ? [makeComponent()] : overrides.items;
  return {
    index: 0,
    name: 'Services',
    collapsed: false,
    size: items?.length ?? 0,
    counts: { up: items?.length ?? 0 },
    status: 'operational',
    items,
    ...overrides,
  };
}

export function makeIncident(overrides: Partial<PublicIncident> = {}): PublicIncident {
  return {
    id: 7,
    title: 'Slow checkout',
    impact: 'minor',
    status: 'identified',
    created_at: '2025-03-01T09:00:00.000Z',
    resolved_at: null,
    components: ['API'],
    updates: [
      { status: 'identified', html: '<p>Found <strong>the cause</strong></p>', created_at: '2025-03-01T09:30:00.000Z' },
      { status: 'investigating', html: '<p>Looking into it</p>', created_at: '2025-03-01T09:00:00.000Z' },
    ],
    ...overrides,
  };
}

export function makePageData(overrides: Partial<StatusPageData> = {}): StatusPageData {
  return {
    page: {
      slug: 'shop',
      title: 'Shop status',
      description: 'Live state of the shop',
      logoUrl: null,
      footer: 'Questions? support@example.com',
      customCss: null,
      theme: 'auto',
      historyDays: 30,
      subscribe: { email: false, webhook: false },
    },
    overall: 'operational',
    incidents: [],
    maintenance: [],
    groups: [makeGroup()],
    history: [],
    marks: [],
    updated_at: '2025-03-04T10:00:00.000Z',
    ...overrides,
  };
}

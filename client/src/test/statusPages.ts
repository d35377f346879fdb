import type { StatusPageDto, StatusPageSummary } from '@vigil/proto';

export function makePageSummary(overrides: Partial<StatusPageSummary> = {}): StatusPageSummary {
  return {
    slug: 'shop',
    title: 'Shop status',
    domain: null,
    hasPassword: false,
    components: 3,
    subscribers: 0,
    updated_at: '2025-03-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A page with one group of two monitors and an agent, with overrides. */
export function makeStatusPage(overrides: Partial<StatusPageDto> = {}): StatusPageDto {
  return {
    slug: 'shop',
    title: 'Shop status',
    description: '',
    logoUrl: null,
    footer: '',
    customCss: null,
    theme: 'auto',
    historyDays: 90,
    showAgentDetails: false,
    showResources: false,
    domain: null,
    hasPassword: false,
    draftAfterMinutes: null,
    subscribeEmailChannelId: null,
    subscribeWebhooks: false,
    groups: [
      {
        name: 'Web',
        collapsed: false,
        items: [
          { type: 'monitor', id: 1 },
          { type: 'monitor', id: 2 },
          { type: 'agent', id: 1 },
        ],
      },
    ],
    created_at: '2025-03-01T00:00:00.000Z',
    updated_at: '2025-03-01T00:00:00.000Z',
    ...overrides,
  };
}

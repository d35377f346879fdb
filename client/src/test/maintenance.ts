import type { MaintenanceDto, MaintenanceListResponse } from '@vigil/proto';

/** A weekly window under way now, covering one monitor, with overrides. */
export function makeMaintenance(overrides: Partial<MaintenanceDto> = {}): MaintenanceDto {
  return {
    id: 1,
    key: 'database-upgrade',
    title: 'Database upgrade',
    description: '',
    strategy: 'weekly',
    timezone: 'UTC',
    start_at: null,
    end_at: null,
    weekdays: [2],
    days_of_month: [],
    start_time: '02:00',
    end_time: '04:00',
    interval_days: null,
    cron: null,
    duration_minutes: null,
    enabled: true,
    phase: 'active',
    current: { start: '2025-03-04T02:00:00.000Z', end: '2025-03-04T04:00:00.000Z' },
    scope: { all: false, monitors: [5], agents: [], groups: [] },
    pages: ['default'],
    notify: false,
    end_when_healthy_minutes: null,
    created_at: '2025-03-01T00:00:00.000Z',
    updated_at: '2025-03-01T00:00:00.000Z',
    ...overrides,
  };
}

export function maintenancePage(items: MaintenanceDto[], extra: Partial<MaintenanceListResponse> = {}): MaintenanceListResponse {
  return { success: true, maintenance: items, total: items.length, page: 1, pageSize: 20, ...extra };
}

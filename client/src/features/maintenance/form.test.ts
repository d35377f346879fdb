import type { MaintenanceDto, SaveMaintenanceRequest } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { formOfMaintenance, type MaintenanceForm, maintenanceRequest, newMaintenanceForm, sortedDays, validateMaintenance } from './form';

const base = (patch: Partial<MaintenanceForm>): MaintenanceForm => ({
  ...newMaintenanceForm('Europe/Berlin'),
  title: ' Database upgrade ',
  description: 'Read-only for a while',
  components: [
    { type: 'monitor', id: 4 },
    { type: 'agent', id: 2 },
    { type: 'group', id: 9 },
    { type: 'monitor', id: 5 },
  ],
  pages: ['default', 'shop'],
  ...patch,
});

const common = {
  title: 'Database upgrade',
  description: 'Read-only for a while',
  timezone: 'Europe/Berlin',
  enabled: true,
  scope: { all: false, monitors: [4, 5], agents: [2], groups: [9] },
  pages: ['default', 'shop'],
  notify: false,
  endWhenHealthyMinutes: null,
};

describe('the maintenance form as a request body', () => {
  it.each<[string, Partial<MaintenanceForm>, Partial<SaveMaintenanceRequest>]>([
    ['manual', { strategy: 'manual', enabled: false }, { strategy: 'manual', enabled: false }],
    [
      'single, read on the window’s zone',
      { strategy: 'single', startAt: '2025-07-01T22:00', endAt: '2025-07-02T01:30' },
      { strategy: 'single', startAt: '2025-07-01T20:00:00.000Z', endAt: '2025-07-01T23:30:00.000Z' },
    ],
    [
      'weekly, days in order, no bounds',
      { strategy: 'weekly', weekdays: [6, 0, 3], startTime: '23:00', endTime: '01:00' },
      { strategy: 'weekly', weekdays: [0, 3, 6], startTime: '23:00', endTime: '01:00', startAt: null, endAt: null },
    ],
    [
      'monthly with the last day and bounds',
      { strategy: 'monthly', daysOfMonth: ['last', 15, 1], startTime: '02:00', endTime: '03:00', endAt: '2025-12-31T23:59' },
      {
        strategy: 'monthly',
        daysOfMonth: [1, 15, 'last'],
        startTime: '02:00',
        endTime: '03:00',
        startAt: null,
        endAt: '2025-12-31T22:59:00.000Z',
      },
    ],
    [
      'interval counted from a first day',
      { strategy: 'interval', intervalDays: 14, startAt: '2028-02-29T00:00', startTime: '04:00', endTime: '05:00' },
      { strategy: 'interval', intervalDays: 14, startAt: '2028-02-28T23:00:00.000Z', endAt: null, startTime: '04:00', endTime: '05:00' },
    ],
    [
      'cron with a duration',
      { strategy: 'cron', cron: '  30 2 * * 1-5 ', durationMinutes: 45 },
      { strategy: 'cron', cron: '30 2 * * 1-5', durationMinutes: 45, startAt: null, endAt: null },
    ],
  ])('%s', (_name, patch, expected) => {
    expect(maintenanceRequest(base(patch))).toEqual({ ...common, ...expected });
  });

  it('sends an empty scope for everything, whatever was picked before', () => {
    expect(maintenanceRequest(base({ strategy: 'manual', scopeAll: true })).scope).toEqual({
      all: true,
      monitors: [],
      agents: [],
      groups: [],
    });
  });

  it('sends notices and end-when-healthy when turned on', () => {
    const body = maintenanceRequest(base({ strategy: 'manual', notify: true, endWhenHealthy: true, endWhenHealthyMinutes: 15 }));
    expect(body.notify).toBe(true);
    expect(body.endWhenHealthyMinutes).toBe(15);
  });
});

describe('validation', () => {
  it.each<[string, Partial<MaintenanceForm>, Record<string, string>]>([
    ['a missing title', { title: ' ', strategy: 'manual' }, { title: 'maintenance.validation.titleRequired' }],
    [
      'a single window without times',
      { strategy: 'single' },
      { startAt: 'maintenance.validation.startRequired', endAt: 'maintenance.validation.endRequired' },
    ],
    [
      'an end before the start',
      { strategy: 'single', startAt: '2025-07-02T10:00', endAt: '2025-07-02T09:00' },
      { endAt: 'maintenance.validation.endBeforeStart' },
    ],
    ['a week without days', { strategy: 'weekly' }, { weekdays: 'maintenance.validation.weekdays' }],
    ['a month without days', { strategy: 'monthly' }, { daysOfMonth: 'maintenance.validation.days' }],
    ['a malformed time', { strategy: 'weekly', weekdays: [1], startTime: '25:00' }, { times: 'maintenance.validation.times' }],
    [
      'an interval of zero days without a first day',
      { strategy: 'interval', intervalDays: 0 },
      { startAt: 'maintenance.validation.startRequired', intervalDays: 'maintenance.validation.intervalDays' },
    ],
    [
      'a cron of four fields and no duration',
      { strategy: 'cron', cron: '0 3 * *', durationMinutes: 0 },
      { cron: 'maintenance.validation.cron', durationMinutes: 'maintenance.validation.duration' },
    ],
    ['nothing covered', { strategy: 'manual', components: [] }, { scope: 'maintenance.validation.scope' }],
    [
      'end-when-healthy past the limit',
      { strategy: 'manual', endWhenHealthy: true, endWhenHealthyMinutes: 2000 },
      { endWhenHealthyMinutes: 'maintenance.validation.healthyMinutes' },
    ],
  ])('refuses %s', (_name, patch, expected) => {
    expect(validateMaintenance(base(patch))).toEqual(expected);
  });

  it('accepts a complete weekly window', () => {
    expect(validateMaintenance(base({ strategy: 'weekly', weekdays: [2], startTime: '22:00', endTime: '02:00' }))).toEqual({});
  });
});

describe('a saved window in the form', () => {
  const saved: MaintenanceDto = {
    id: 3,
    key: 'patch-night',
    title: 'Patch night',
    description: '',
    strategy: 'weekly',
    timezone: 'America/New_York',
    start_at: '2025-01-01T05:00:00.000Z',
    end_at: null,
    weekdays: [2, 4],
    days_of_month: [],
    start_time: '22:00',
    end_time: '23:30',
    interval_days: null,
    cron: null,
    duration_minutes: null,
    enabled: true,
    phase: 'scheduled',
    current: { start: '2025-01-08T03:00:00.000Z', end: '2025-01-08T04:30:00.000Z' },
    scope: { all: false, monitors: [1], agents: [], groups: [7] },
    pages: ['default'],
    notify: true,
    end_when_healthy_minutes: 5,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  };

  it('reads dates on the window’s zone and sends them back unchanged', () => {
    const form = formOfMaintenance(saved);
    expect(form.startAt).toBe('2025-01-01T00:00');
    expect(form.components).toEqual([
      { type: 'monitor', id: 1 },
      { type: 'group', id: 7 },
    ]);
    expect(maintenanceRequest(form)).toMatchObject({
      strategy: 'weekly',
      timezone: 'America/New_York',
      startAt: '2025-01-01T05:00:00.000Z',
      endAt: null,
      weekdays: [2, 4],
      scope: { all: false, monitors: [1], agents: [], groups: [7] },
      notify: true,
      endWhenHealthyMinutes: 5,
    });
  });

  it('orders days of the month with the last one at the end', () => {
    expect(sortedDays(['last', 31, 2])).toEqual([2, 31, 'last']);
  });
});

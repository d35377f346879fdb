import type { Type } from '@nestjs/common';
import fc from 'fast-check';
import type { MessageCode } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { CalendarQuery, MaintenanceQuery, SaveMaintenanceDto } from './maintenance.dto';
import { windowInput } from './maintenance-fields';

const pipe = createValidationPipe();

async function validated<T>(
  metatype: Type<T>,
  value: unknown,
  type: 'body' | 'query' = 'body',
): Promise<{ ok: true; value: T } | { ok: false; code: MessageCode; message: string }> {
  try {
    return { ok: true, value: (await pipe.transform(value, { type, metatype })) as T };
  } catch (error) {
    const body = (error as { getResponse(): { code: MessageCode; message: string } }).getResponse();
    return { ok: false, code: body.code, message: body.message };
  }
}

/** The body through the DTO, then the rules across its fields: what a save would store, or the code it is refused with. */
async function saved(body: Record<string, unknown>) {
  const checked = await validated(SaveMaintenanceDto, body);
  if (!checked.ok) return checked;
  try {
    return { ok: true as const, value: windowInput(checked.value) };
  } catch (error) {
    const answer = (error as { getResponse(): { code: MessageCode; message: string } }).getResponse();
    return { ok: false as const, code: answer.code, message: answer.message };
  }
}

const SCOPE = { all: false, monitors: [1, 2, 2], agents: [3], groups: [] };
const WEEKLY = {
  title: ' Nightly backup ',
  strategy: 'weekly',
  timezone: 'europe/berlin',
  weekdays: [3, 1, 3],
  startTime: '22:00',
  endTime: '02:00',
  scope: SCOPE,
  pages: ['default', 'default'],
};

describe('a maintenance window body', () => {
  it('keeps what the strategy uses, trims the title, names the zone canonically and drops repeats', async () => {
    expect(await saved({ ...WEEKLY, cron: '0 2 * * *', daysOfMonth: [1], intervalDays: 3 })).toEqual({
      ok: true,
      value: {
        fields: expect.objectContaining({
          title: 'Nightly backup',
          strategy: 'weekly',
          timezone: 'Europe/Berlin',
          weekdays: [1, 3],
          days_of_month: [],
          start_time: '22:00',
          end_time: '02:00',
          interval_days: null,
          cron: null,
          enabled: true,
          notify: false,
          all_targets: false,
        }),
        scope: { all: false, monitors: [1, 2], agents: [3], groups: [] },
        pages: ['default'],
      },
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['manual', { strategy: 'manual', scope: { all: true, monitors: [], agents: [], groups: [] } }],
    ['single', { strategy: 'single', startAt: '2026-06-01T10:00:00Z', endAt: '2026-06-01T12:00:00+01:00' }],
    ['monthly with the last day', { strategy: 'monthly', daysOfMonth: [31, 'last', 1], startTime: '01:00', endTime: '03:00' }],
    ['interval', { strategy: 'interval', intervalDays: 14, startAt: '2026-01-01T00:00:00Z', startTime: '04:00', endTime: '04:30' }],
    ['cron', { strategy: 'cron', cron: '30 2 * * 1-5', durationMinutes: 90, timezone: 'America/New_York' }],
    ['weekly with bounds', { ...WEEKLY, startAt: '2026-01-01T00:00:00Z', endAt: null }],
  ])('accepts a %s window', async (_name, patch) => {
    expect((await saved({ title: 'Work', scope: SCOPE, ...patch })).ok).toBe(true);
  });

  it.each<[string, Record<string, unknown>, MessageCode]>([
    ['no title', { title: undefined }, 'maintenance.titleInvalid'],
    ['a blank title', { title: '  ' }, 'maintenance.titleInvalid'],
    ['a title of 151 characters', { title: 'x'.repeat(151) }, 'maintenance.titleInvalid'],
    ['a description of 5,001 characters', { description: 'x'.repeat(5_001) }, 'maintenance.descriptionInvalid'],
    ['an unknown strategy', { strategy: 'hourly' }, 'maintenance.strategyInvalid'],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'maintenance.timezoneInvalid'],
    ['an offset for a time zone', { timezone: '+02:00' }, 'maintenance.timezoneInvalid'],
    ['a null time zone', { timezone: null }, 'maintenance.timezoneInvalid'],
    ['a start that is no date', { startAt: 'tomorrow' }, 'maintenance.dateInvalid'],
    ['a start before 1970', { startAt: '1969-12-31T00:00:00Z' }, 'maintenance.dateInvalid'],
    ['an end before the start', { startAt: '2026-06-02T00:00:00Z', endAt: '2026-06-01T00:00:00Z' }, 'maintenance.endBeforeStart'],
    ['an end equal to the start', { startAt: '2026-06-01T00:00:00Z', endAt: '2026-06-01T00:00:00Z' }, 'maintenance.endBeforeStart'],
    ['a single window without an end', { strategy: 'single', startAt: '2026-06-01T00:00:00Z' }, 'maintenance.singleNeedsRange'],
    ['a time of 24:00', { startTime: '24:00' }, 'maintenance.timeInvalid'],
    ['a time without minutes', { endTime: '7' }, 'maintenance.timeInvalid'],
    ['a time of 9:30', { startTime: '9:30' }, 'maintenance.timeInvalid'],
    ['a weekly window without times', { startTime: null }, 'maintenance.timeRequired'],
    ['a weekday of 7', { weekdays: [7] }, 'maintenance.weekdaysInvalid'],
    ['a weekday of -1', { weekdays: [-1] }, 'maintenance.weekdaysInvalid'],
    ['no weekdays', { weekdays: [] }, 'maintenance.weekdaysInvalid'],
    ['a day of month 32', { strategy: 'monthly', daysOfMonth: [32] }, 'maintenance.daysOfMonthInvalid'],
    ['a day of month 0', { strategy: 'monthly', daysOfMonth: [0] }, 'maintenance.daysOfMonthInvalid'],
    ['"first" as a day of month', { strategy: 'monthly', daysOfMonth: ['first'] }, 'maintenance.daysOfMonthInvalid'],
    ['no day of month', { strategy: 'monthly', daysOfMonth: [] }, 'maintenance.daysOfMonthInvalid'],
    ['an interval of 0 days', { strategy: 'interval', intervalDays: 0, startAt: '2026-01-01T00:00:00Z' }, 'maintenance.intervalInvalid'],
    ['an interval of 3,651 days', { strategy: 'interval', intervalDays: 3_651 }, 'maintenance.intervalInvalid'],
    ['an interval without a start', { strategy: 'interval', intervalDays: 2 }, 'maintenance.intervalNeedsStart'],
    ['an invalid cron', { strategy: 'cron', cron: '61 * * * *', durationMinutes: 5 }, 'maintenance.cronInvalid'],
    ['a cron of six fields', { strategy: 'cron', cron: '0 0 2 * * *', durationMinutes: 5 }, 'maintenance.cronInvalid'],
    ['a cron that never runs', { strategy: 'cron', cron: '0 0 31 2 *', durationMinutes: 5 }, 'maintenance.cronInvalid'],
    ['a cron without a duration', { strategy: 'cron', cron: '0 2 * * *' }, 'maintenance.durationInvalid'],
    ['a duration of 0', { strategy: 'cron', cron: '0 2 * * *', durationMinutes: 0 }, 'maintenance.durationInvalid'],
    ['a duration over 30 days', { strategy: 'cron', cron: '0 2 * * *', durationMinutes: 43_201 }, 'maintenance.durationInvalid'],
    ['end when healthy after 0 minutes', { endWhenHealthyMinutes: 0 }, 'maintenance.endWhenHealthyInvalid'],
    ['end when healthy after 1,441 minutes', { endWhenHealthyMinutes: 1_441 }, 'maintenance.endWhenHealthyInvalid'],
    ['no scope', { scope: undefined }, 'maintenance.scopeInvalid'],
    ['a scope that is a list', { scope: [1, 2] }, 'maintenance.scopeInvalid'],
    ['a scope without lists', { scope: { all: true } }, 'maintenance.scopeInvalid'],
    ['a monitor id of 0', { scope: { ...SCOPE, monitors: [0] } }, 'maintenance.scopeInvalid'],
    ['a monitor id as text', { scope: { ...SCOPE, monitors: ['7'] } }, 'maintenance.scopeInvalid'],
    [
      'a scope of 100,001 monitors',
      { scope: { ...SCOPE, monitors: Array.from({ length: 100_001 }, (_, i) => i + 1) } },
      'maintenance.scopeTooLarge',
    ],
    ['a scope covering nothing', { scope: { all: false, monitors: [], agents: [], groups: [] } }, 'maintenance.scopeEmpty'],
    ['a page slug in capitals', { pages: ['Default'] }, 'maintenance.pagesInvalid'],
    ['101 pages', { pages: Array.from({ length: 101 }, (_, i) => `page-${i}`) }, 'maintenance.pagesInvalid'],
    ['notify as text', { notify: 'yes' }, 'maintenance.notifyInvalid'],
    ['enabled as a number', { enabled: 1 }, 'maintenance.enabledInvalid'],
  ])('refuses %s, naming it', async (_name, patch, code) => {
    expect(await saved({ ...WEEKLY, ...patch })).toMatchObject({ ok: false, code });
  });

  it("says why a cron was refused, in croner's words", async () => {
    const answer = await saved({ ...WEEKLY, strategy: 'cron', cron: '61 * * * *', durationMinutes: 5 });
    expect(answer).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^cron must be a valid five-field expression .*\(.*minute.*\)$/),
    });
  });

  it('answers a 400 with a code for any body, never throws otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...Object.keys(WEEKLY), 'cron', 'daysOfMonth', 'intervalDays'), fc.anything()),
        async (patch) => {
          const answer = await saved({ ...WEEKLY, ...patch });
          if (!answer.ok) expect(answer.code).toMatch(/^(maintenance|validation)\./);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('maintenance queries', () => {
  it.each<[Record<string, string>, boolean]>([
    [{ phase: 'active' }, true],
    [{ phase: 'done' }, false],
    [{ monitorId: '12', page: '2', pageSize: '10' }, true],
    [{ monitorId: '0' }, false],
    [{ agentId: '1e3' }, false],
  ])('%j → valid: %s', async (query, ok) => {
    expect((await validated(MaintenanceQuery, query, 'query')).ok).toBe(ok);
  });

  it.each<[Record<string, string>, boolean]>([
    [{ from: '2026-06-01T00:00:00Z', to: '2026-07-01T00:00:00Z' }, true],
    [{ from: 'June', to: '2026-07-01T00:00:00Z' }, false],
    [{ from: '2026-06-01T00:00:00Z' }, false],
  ])('calendar %j → valid: %s', async (query, ok) => {
    expect(await validated(CalendarQuery, query, 'query')).toMatchObject(
      ok ? { ok: true } : { ok: false, code: 'maintenance.rangeInvalid' },
    );
  });
});

import type { Type } from '@nestjs/common';
import fc from 'fast-check';
import type { MessageCode } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { AddIncidentUpdateDto, CreateIncidentDto, IncidentsQuery, SaveIncidentDto } from './incidents.dto';

const pipe = createValidationPipe();

async function validated<T>(
  metatype: Type<T>,
  value: unknown,
  type: 'body' | 'query' = 'body',
): Promise<{ ok: true; value: T } | { ok: false; code: MessageCode }> {
  try {
    return { ok: true, value: (await pipe.transform(value, { type, metatype })) as T };
  } catch (error) {
    return { ok: false, code: (error as { getResponse(): { code: MessageCode } }).getResponse().code };
  }
}

const VALID = {
  title: ' Checkout is slow ',
  impact: 'minor',
  status: 'identified',
  message: 'The **payment** provider answers slowly.\n',
  monitors: [1, 2],
  agents: [3],
  pages: ['default', 'shop-eu'],
  published: false,
};

describe('an incident body (CreateIncidentDto)', () => {
  it('trims the title and keeps the Markdown as written', async () => {
    expect(await validated(CreateIncidentDto, VALID)).toEqual({ ok: true, value: { ...VALID, title: 'Checkout is slow' } });
  });

  it('needs only a title, an impact and a message', async () => {
    expect(await validated(CreateIncidentDto, { title: 'Down', impact: 'major', message: 'Looking into it' })).toEqual({
      ok: true,
      value: { title: 'Down', impact: 'major', message: 'Looking into it' },
    });
  });

  it.each<[string, Record<string, unknown>, MessageCode]>([
    ['no title', { title: undefined }, 'incidents.titleInvalid'],
    ['a blank title', { title: '   ' }, 'incidents.titleInvalid'],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, 'incidents.titleInvalid'],
    ['a title that is a number', { title: 42 }, 'incidents.titleInvalid'],
    ['an unknown impact', { impact: 'catastrophic' }, 'incidents.impactInvalid'],
    ['no impact', { impact: undefined }, 'incidents.impactInvalid'],
    ['an unknown status', { status: 'fixed' }, 'incidents.statusInvalid'],
    ['a null status', { status: null }, 'incidents.statusInvalid'],
    ['no message', { message: undefined }, 'incidents.messageInvalid'],
    ['a blank message', { message: ' \n\t ' }, 'incidents.messageInvalid'],
    ['a message of 20,001 characters', { message: 'x'.repeat(20_001) }, 'incidents.messageInvalid'],
    ['monitors that are not a list', { monitors: 5 }, 'incidents.monitorsInvalid'],
    ['a monitor id of 0', { monitors: [0] }, 'incidents.monitorsInvalid'],
    ['a fractional monitor id', { monitors: [1.5] }, 'incidents.monitorsInvalid'],
    ['a monitor id past an integer column', { monitors: [2 ** 31] }, 'incidents.monitorsInvalid'],
    ['a monitor id as text', { monitors: ['7'] }, 'incidents.monitorsInvalid'],
    ['10,001 monitors', { monitors: Array.from({ length: 10_001 }, (_, i) => i + 1) }, 'incidents.monitorsInvalid'],
    ['a negative agent id', { agents: [-3] }, 'incidents.agentsInvalid'],
    ['a null agents list', { agents: null }, 'incidents.agentsInvalid'],
    ['pages that are not a list', { pages: 'default' }, 'incidents.pagesInvalid'],
    ['an uppercase page slug', { pages: ['Shop'] }, 'incidents.pagesInvalid'],
    ['a page slug with ..', { pages: ['..'] }, 'incidents.pagesInvalid'],
    ['a page slug that is a number', { pages: [12] }, 'incidents.pagesInvalid'],
    ['101 pages', { pages: Array.from({ length: 101 }, (_, i) => `page-${i}`) }, 'incidents.pagesInvalid'],
    ['published as text', { published: 'yes' }, 'incidents.publishedInvalid'],
  ])('refuses %s', async (_, change, code) => {
    expect(await validated(CreateIncidentDto, { ...VALID, ...change })).toEqual({ ok: false, code });
  });

  it('takes the longest title and message, and every id allowed', async () => {
    const sut = await validated(CreateIncidentDto, {
      ...VALID,
      title: '界'.repeat(200),
      message: '界'.repeat(20_000),
      monitors: Array.from({ length: 10_000 }, (_, i) => i + 1),
      agents: Array.from({ length: 10_000 }, (_, i) => 2 ** 31 - 1 - i),
      pages: Array.from({ length: 100 }, (_, i) => `page-${i}`),
    });
    expect(sut.ok).toBe(true);
  });

  it('answers any body with an incident or a 400 naming a field, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            title: fc.anything(),
            impact: fc.anything(),
            status: fc.anything(),
            message: fc.anything(),
            monitors: fc.anything(),
            pages: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const sut = await validated(CreateIncidentDto, body);
          if (!sut.ok) expect(sut.code).toMatch(/^(incidents\.\w+Invalid|validation\.textInvalid)$/);
          else expect(['none', 'minor', 'major', 'critical']).toContain(sut.value.impact);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('an incident save (SaveIncidentDto)', () => {
  it('keeps lists it is not given (absent, not empty)', async () => {
    expect(await validated(SaveIncidentDto, { title: 'Down', impact: 'none' })).toEqual({
      ok: true,
      value: { title: 'Down', impact: 'none' },
    });
  });

  it('drops a status: only the timeline changes it', async () => {
    const sut = await validated(SaveIncidentDto, { title: 'Down', impact: 'none', status: 'resolved' });
    expect(sut).toEqual({ ok: true, value: { title: 'Down', impact: 'none' } });
  });
});

describe('an update (AddIncidentUpdateDto)', () => {
  it.each<[Record<string, unknown>, MessageCode]>([
    [{ message: 'Fixed' }, 'incidents.statusInvalid'],
    [{ status: 'closed', message: 'Fixed' }, 'incidents.statusInvalid'],
    [{ status: 'resolved' }, 'incidents.messageInvalid'],
    [{ status: 'resolved', message: '' }, 'incidents.messageInvalid'],
  ])('refuses %j', async (body, code) => {
    expect(await validated(AddIncidentUpdateDto, body)).toEqual({ ok: false, code });
  });
});

describe('the list query (IncidentsQuery)', () => {
  it.each<[Record<string, string>, MessageCode]>([
    [{ state: 'open' }, 'incidents.stateInvalid'],
    [{ search: 'x'.repeat(101) }, 'incidents.searchInvalid'],
    [{ pageSize: '501' }, 'request.pageSizeInvalid'],
    [{ page: '0' }, 'request.pageInvalid'],
  ])('refuses %j', async (query, code) => {
    expect(await validated(IncidentsQuery, query, 'query')).toEqual({ ok: false, code });
  });

  it('reads a state, a search and paging', async () => {
    expect(await validated(IncidentsQuery, { state: 'draft', search: 'db', page: '2', pageSize: '20' }, 'query')).toEqual({
      ok: true,
      value: expect.objectContaining({ state: 'draft', search: 'db', page: 2, pageSize: 20 }),
    });
  });
});

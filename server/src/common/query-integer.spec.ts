import { ArgumentMetadata } from '@nestjs/common';
import { MessageCode } from '@vigil/proto';
import { ChecksQuery } from '../monitors/monitors.dto';
import { HistoryQuery } from '../notifications/notifications.dto';
import { ParseIdPipe } from './parse-id.pipe';
import { PAGE_MAX } from './paging';
import { ID_MAX } from './query-integer';
import { createValidationPipe } from './validation';

const sut = createValidationPipe();

async function read(query: Record<string, unknown>, metatype: ArgumentMetadata['metatype']): Promise<unknown> {
  try {
    return await sut.transform(query, { type: 'query', metatype });
  } catch (error) {
    return (error as { getResponse(): { code: MessageCode } }).getResponse().code;
  }
}

describe('whole numbers in a query string', () => {
  it.each<[string, Record<string, unknown>, unknown]>([
    ['a page in digits', { page: '3' }, { page: 3 }],
    ['the last page', { page: String(PAGE_MAX) }, { page: PAGE_MAX }],
    ['a page past the last', { page: String(PAGE_MAX + 1) }, 'request.pageInvalid'],
    ['a page in exponent form (once a 500 from PostgreSQL)', { page: '1e21' }, 'request.pageInvalid'],
    ['a page of twenty digits', { page: '99999999999999999999' }, 'request.pageInvalid'],
    ['a hexadecimal page', { page: '0x10' }, 'request.pageInvalid'],
    ['a fractional page', { page: '1.5' }, 'request.pageInvalid'],
    ['page zero', { page: '0' }, 'request.pageInvalid'],
    ['an empty page', { page: '' }, 'request.pageInvalid'],
    ['a repeated page', { page: ['1', '2'] }, 'request.pageInvalid'],
    ['a page size over the limit', { pageSize: '501' }, 'request.pageSizeInvalid'],
    ['a page size with a sign', { pageSize: '+5' }, 'request.pageSizeInvalid'],
  ])('reads %s', async (_case, query, expected) => {
    const result = await read(query, ChecksQuery);
    expect(typeof result === 'string' ? result : { ...(result as object) }).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ['the largest id', { channel_id: String(ID_MAX) }, { channel_id: ID_MAX }],
    ['an id past PostgreSQL integer', { channel_id: String(ID_MAX + 1) }, 'request.invalidId'],
    ['an absurd channel id (once a 500 from PostgreSQL)', { channel_id: '1e21' }, 'request.invalidId'],
    ['a negative target id', { target_id: '-1' }, 'request.invalidId'],
  ])('reads %s as an id filter', async (_case, query, expected) => {
    const result = await read(query, HistoryQuery);
    expect(typeof result === 'string' ? result : { ...(result as object) }).toEqual(expected);
  });

  it('bounds route ids by the same largest id', () => {
    expect(new ParseIdPipe().transform(String(ID_MAX))).toBe(ID_MAX);
    expect(() => new ParseIdPipe().transform(String(ID_MAX + 1))).toThrow();
    expect(() => new ParseIdPipe().transform('1e3')).toThrow();
  });
});

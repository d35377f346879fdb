import { describe, expect, it } from 'vitest';
import {
  type HeaderRow,
  headersToRows,
  invalidHeaderRow,
  removeHeaderRow,
  rowsToHeaders,
  updateHeaderRow,
  withTrailingBlankRow,
} from './headers';

const row = (name: string, value = ''): HeaderRow => ({ name, value });

describe('header rows', () => {
  it.each<[string, HeaderRow[], HeaderRow[]]>([
    ['adds a blank row to none', [], [row('')]],
    ['adds a blank row after a filled one', [row('Accept', 'json')], [row('Accept', 'json'), row('')]],
    ['adds a blank row after a row with only a value', [row('', 'x')], [row('', 'x'), row('')]],
    ['keeps a single trailing blank row', [row('A', '1'), row('')], [row('A', '1'), row('')]],
    ['collapses several trailing blank rows into one', [row('A', '1'), row(''), row(''), row('')], [row('A', '1'), row('')]],
    ['leaves a blank row in the middle alone', [row(''), row('B', '2')], [row(''), row('B', '2'), row('')]],
  ])('%s', (_name, rows, expected) => {
    expect(withTrailingBlankRow(rows)).toEqual(expected);
  });

  it('appends a new blank row as soon as the last row gets a name', () => {
    const rows = updateHeaderRow([row('')], 0, { name: 'X' });
    expect(rows).toEqual([row('X'), row('')]);
  });

  it('drops the extra blank row when the last filled row is emptied again', () => {
    const rows = updateHeaderRow([row('X'), row('')], 0, { name: '' });
    expect(rows).toEqual([row('')]);
  });

  it('removes a row and still ends with one blank row', () => {
    expect(removeHeaderRow([row('A', '1'), row('B', '2'), row('')], 0)).toEqual([row('B', '2'), row('')]);
    expect(removeHeaderRow([row('A', '1'), row('')], 0)).toEqual([row('')]);
  });

  it.each<[string, HeaderRow[], Record<string, string>]>([
    ['trims names and keeps values as typed', [row('  X-Token ', ' abc ')], { 'X-Token': ' abc ' }],
    ['drops rows with a blank name', [row('', 'orphan'), row('   ', 'spaces'), row('Accept', 'json')], { Accept: 'json' }],
    ['drops the trailing blank row', [row('A', '1'), row('')], { A: '1' }],
    ['keeps an empty value', [row('X-Empty', '')], { 'X-Empty': '' }],
    ['lets a later row with the same name win', [row('A', '1'), row('A', '2')], { A: '2' }],
  ])('%s', (_name, rows, headers) => {
    expect(rowsToHeaders(rows)).toEqual(headers);
  });

  it('turns stored headers into rows plus a blank one', () => {
    expect(headersToRows({ Accept: 'json', 'X-A': '1' })).toEqual([row('Accept', 'json'), row('X-A', '1'), row('')]);
    expect(headersToRows(null)).toEqual([row('')]);
  });

  it.each<[HeaderRow[], number]>([
    [[row('Accept', 'json'), row('')], -1],
    [[row('', 'ignored value with\nnewline')], -1],
    [[row('Accept'), row('Bad Name', 'x')], 1],
    [[row('X-A', 'line\nbreak')], 0],
  ])('finds the first header the server would refuse in %j', (rows, index) => {
    expect(invalidHeaderRow(rows)).toBe(index);
  });
});

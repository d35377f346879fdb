import { SECRET_MASK as M } from '@vigil/proto';
import { toMonitorDto, uptimePercent } from './monitor.mapper';
import { monitorRow } from './monitor-fixtures.testing';

const row = monitorRow;

describe('toMonitorDto', () => {
  it('masks credentials in the URL and credential headers, keeping plain ones', () => {
    const sut = toMonitorDto(
      row({
        url: 'https://ops:hunter2@api.example.com/health?token=abc123&verbose=1',
        headers: {
          Authorization: 'Bearer abc',
          'Proxy-Authorization': 'Basic x',
          Cookie: 'sid=1',
          'X-Api-Key': 'k',
          Accept: 'application/json',
        },
      }),
    );
    expect(sut.url).toBe(`https://${M}@api.example.com/health?token=${M}&verbose=1`);
    expect(sut.headers).toEqual({ Authorization: M, 'Proxy-Authorization': M, Cookie: M, 'X-Api-Key': M, Accept: 'application/json' });
    expect(JSON.stringify(sut)).not.toMatch(/hunter2|abc123|Bearer abc|sid=1/);
  });

  it('shows a URL without credentials as stored', () => {
    expect(toMonitorDto(row({})).url).toBe('https://api.example.com/health');
  });
});

describe('uptimePercent', () => {
  it.each([
    [0, 0, 100],
    [10, 10, 100],
    [0, 10, 0],
    [1, 3, 33.33],
    [2, 3, 66.67],
    [999, 1000, 99.9],
    [11, 10, 100],
    [-1, 10, 0],
  ])('%s of %s → %s', (up, checks, percent) => {
    expect(uptimePercent(up, checks)).toBe(percent);
  });
});

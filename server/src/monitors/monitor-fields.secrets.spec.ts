import { SECRET_MASK as M } from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import { keptSecrets } from './monitor-fields';

const stored = { url: 'https://ops:pw@api.example.com/health?token=t0k&v=1', headers: { Authorization: 'Bearer s3cret', Accept: 'json' } };

function refusal(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof ApiException ? error.code : 'unexpected';
  }
}

describe('keptSecrets', () => {
  it('puts masked URL credentials and headers back for the same destination', () => {
    expect(keptSecrets(stored, `https://${M}@api.example.com/health?token=${M}&v=1`, { Authorization: M, Accept: 'text' })).toEqual({
      url: stored.url,
      headers: { Authorization: 'Bearer s3cret', Accept: 'text' },
    });
  });

  it('keeps masked headers on an edit that leaves the URL out', () => {
    expect(keptSecrets(stored, undefined, { Authorization: M })).toEqual({ url: undefined, headers: { Authorization: 'Bearer s3cret' } });
  });

  it('takes newly typed values for a new destination', () => {
    expect(keptSecrets(stored, 'https://other.example/health', { Authorization: 'Bearer new' })).toEqual({
      url: 'https://other.example/health',
      headers: { Authorization: 'Bearer new' },
    });
  });

  it.each([
    ['masked headers to another host', 'https://other.example/health?token=x&v=1', { Authorization: M }, 'monitors.headersReenter'],
    ['masked headers to another path', 'https://api.example.com/admin?token=x&v=1', { Authorization: M }, 'monitors.headersReenter'],
    ['stored credential headers left out for another host', 'https://other.example/health', undefined, 'monitors.headersReenter'],
    ['masked URL credentials to another host', `https://${M}@other.example/health`, {}, 'monitors.urlCredentialsReenter'],
    ['a masked header with nothing stored under its name', undefined, { 'X-Api-Key': M }, 'monitors.headersReenter'],
  ])('refuses %s', (_case, url, headers, code) => {
    expect(refusal(() => keptSecrets(stored, url, headers))).toBe(code);
  });

  it('refuses any mask on a new monitor', () => {
    expect(refusal(() => keptSecrets(null, 'https://api.example.com/', { Authorization: M }))).toBe('monitors.headersReenter');
    expect(refusal(() => keptSecrets(null, `https://${M}@api.example.com/`, {}))).toBe('monitors.urlCredentialsReenter');
  });

  it('lets a plain-header monitor move anywhere', () => {
    expect(keptSecrets({ url: 'https://a.example/', headers: { Accept: 'json' } }, 'https://b.example/', undefined)).toEqual({
      url: 'https://b.example/',
      headers: undefined,
    });
  });
});

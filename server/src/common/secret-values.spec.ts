import { SECRET_MASK as M } from '@vigil/proto';
import { isSecretName, maskHeaders, maskUrl, restoreHeaders, restoreUrl, sameDestination } from './secret-values';

describe('isSecretName', () => {
  it.each([
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'X-Api-Key',
    'X-Auth-Token',
    'token',
    'access_token',
    'api_key',
    'key',
    'secret',
    'password',
    'sig',
    'signature',
    'sign',
  ])('takes %s for a credential', (name) => expect(isSecretName(name)).toBe(true));
  it.each(['Accept', 'Content-Type', 'User-Agent', 'team', 'format', 'page'])('takes %s for a plain value', (name) =>
    expect(isSecretName(name)).toBe(false),
  );
});

describe('maskUrl', () => {
  it.each([
    ['https://hooks.example.com/a/b', 'https://hooks.example.com/a/b'],
    ['https://user:pa%40ss@hooks.example.com/a', `https://${M}@hooks.example.com/a`],
    ['https://tokenonly@hooks.example.com/', `https://${M}@hooks.example.com/`],
    [
      'http://h.example:8080/x?team=ops&token=abc123&Api_Key=k&sig=s#frag',
      `http://h.example:8080/x?team=ops&token=${M}&Api_Key=${M}&sig=${M}#frag`,
    ],
    ['https://h.example/x?token=', 'https://h.example/x?token='],
    ['not a url', M],
  ])('shows %s as %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});

describe('sameDestination', () => {
  it.each([
    ['https://u:p@h.example/x?token=1', 'https://h.example/x?token=2', true],
    ['https://H.EXAMPLE:443/x', 'https://h.example/x', true],
    ['https://h.example/x', 'https://h.example/y', false],
    ['https://h.example/x', 'http://h.example/x', false],
    ['https://h.example/x', 'https://h.example:8443/x', false],
    ['https://h.example/x?team=a', 'https://h.example/x?team=b', false],
    // The WHATWG parser reads the host as attacker.example: a naive split would see h.example.
    ['http://attacker.example\\@h.example/x', 'http://h.example/x', false],
  ])('%s and %s: %s', (a, b, same) => {
    expect(sameDestination(a, b)).toBe(same);
  });
});

describe('restoreUrl', () => {
  const stored = 'https://user:pass@h.example/hook?team=ops&token=t0ken';

  it('keeps a URL without masks as it is', () => {
    expect(restoreUrl('https://other.example/x', stored)).toBe('https://other.example/x');
  });

  it('puts the stored credentials back when the destination is unchanged', () => {
    expect(restoreUrl(maskUrl(stored), stored)).toBe(stored);
    expect(restoreUrl(`https://${encodeURIComponent(M)}@h.example/hook?team=ops&token=${encodeURIComponent(M)}`, stored)).toBe(stored);
  });

  it('takes newly typed credentials with a kept one', () => {
    expect(restoreUrl(`https://me:new@h.example/hook?team=ops&token=${M}`, stored)).toBe(
      'https://me:new@h.example/hook?team=ops&token=t0ken',
    );
  });

  it.each([
    ['another host', `https://${M}@attacker.example/hook?team=ops&token=${M}`],
    ['another path', `https://${M}@h.example/other?team=ops&token=${M}`],
    ['another plain parameter', `https://h.example/hook?team=dev&token=${M}`],
    ['a userinfo trick', `http://attacker.example\\@h.example/hook?team=ops&token=${M}`],
  ])('refuses a mask sent to %s', (_case, url) => {
    expect(restoreUrl(url, stored)).toBeNull();
  });

  it('refuses a mask with nothing stored', () => {
    expect(restoreUrl(`https://${M}@h.example/`, null)).toBeNull();
    expect(restoreUrl(`https://${M}@h.example/hook?team=ops&token=x`, 'https://h.example/hook?team=ops&token=x')).toBeNull();
  });
});

describe('maskHeaders', () => {
  it('masks secret-looking names, or every value when asked', () => {
    expect(maskHeaders({ Authorization: 'Bearer x', Accept: 'text/plain', Cookie: 'a=b', 'X-Empty-Token': '' })).toEqual({
      Authorization: M,
      Accept: 'text/plain',
      Cookie: M,
      'X-Empty-Token': '',
    });
    expect(maskHeaders({ Accept: 'text/plain' }, true)).toEqual({ Accept: M });
  });
});

describe('restoreHeaders', () => {
  const stored = { Authorization: 'Bearer s3cret', Accept: 'text/plain' };

  it('puts a masked value back from the stored header of the same name, any case', () => {
    expect(restoreHeaders({ authorization: M, Accept: 'application/json' }, stored, true)).toEqual({
      ok: true,
      headers: { authorization: 'Bearer s3cret', Accept: 'application/json' },
    });
  });

  it('names the header whose mask cannot be put back', () => {
    expect(restoreHeaders({ Authorization: M }, stored, false)).toEqual({ ok: false, name: 'Authorization' });
    expect(restoreHeaders({ 'X-Other': M }, stored, true)).toEqual({ ok: false, name: 'X-Other' });
  });
});

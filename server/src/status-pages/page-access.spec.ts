import { createHmac } from 'node:crypto';
import type { Request } from 'express';
import { ApiException } from '../common/api-exception';
import { Limiter } from '../common/limits/limiter';
import type { TokenService } from '../auth/token.service';
import { PasswordHasher } from '../users/password-hasher';
import { PageAccess, parseCookies, unlockCookieName } from './page-access';
import type { PageDirectory } from './page-directory';
import type { PageKey } from './status-pages.repository';

const tokens = { mac: (purpose: string, data: string) => createHmac('sha256', 'k').update(`${purpose}\n${data}`).digest('base64url') };

async function setup() {
  const hasher = new PasswordHasher();
  const pages = new Map<string, PageKey>([
    ['open', { id: 1, slug: 'open', domain: null, password_hash: null }],
    ['locked', { id: 2, slug: 'locked', domain: null, password_hash: await hasher.hash('open-sesame') }],
  ]);
  const directory = { bySlug: async (slug: string) => pages.get(slug) ?? null } as unknown as PageDirectory;
  const sut = new PageAccess(tokens as TokenService, directory, hasher, new Limiter());
  return { sut, pages, hasher };
}

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: ApiException) => [error.getStatus(), error.code],
  );

describe('page access', () => {
  it('opens a page without a password to anyone, a password page only with its cookie', async () => {
    const { sut } = await setup();
    await expect(sut.readable('open', undefined)).resolves.toMatchObject({ id: 1 });
    expect(await code(sut.readable('locked', undefined))).toEqual([401, 'statusPages.locked']);
    expect(await code(sut.readable('nowhere', undefined))).toEqual([404, 'statusPages.notFound']);
    expect(await code(sut.readable('../etc', undefined))).toEqual([404, 'statusPages.notFound']);

    const cookie = await sut.unlock('locked', 'open-sesame', '192.0.2.1');
    expect(cookie.name).toBe(unlockCookieName(2));
    const header = `other=1; ${cookie.name}=${cookie.value}`;
    await expect(sut.readable('locked', header)).resolves.toMatchObject({ id: 2 });
    expect(await sut.joinRefusal('locked', header)).toBeNull();
    expect(await sut.joinRefusal('locked', undefined)).toBe('statusPages.locked');
    expect(
      sut.unlocked({ id: 2, passwordHash: (await sut.readable('locked', header)).password_hash! }, {
        headers: { cookie: header },
      } as Request),
    ).toBe(true);
  });

  it("refuses a forged, expired or another page's cookie, and any cookie after a new password", async () => {
    const { sut, pages, hasher } = await setup();
    const { name, value } = await sut.unlock('locked', 'open-sesame', '192.0.2.1');
    const [expires, signature] = value.split('.');
    const refused = async (cookie: string) => (await sut.joinRefusal('locked', cookie)) === 'statusPages.locked';
    expect(await refused(`${name}=${Number(expires) + 1}.${signature}`)).toBe(true);
    expect(await refused(`${name}=${expires}.${'A'.repeat(43)}`)).toBe(true);
    expect(await refused(`${unlockCookieName(1)}=${value}`)).toBe(true);
    const past = Math.floor(Date.now() / 1000) - 10;
    expect(await refused(`${name}=${past}.${tokens.mac('status-page-unlock', `2.${past}.${pages.get('locked')!.password_hash}`)}`)).toBe(
      true,
    );
    pages.set('locked', { ...pages.get('locked')!, password_hash: await hasher.hash('open-sesame') });
    expect(await refused(`${name}=${value}`)).toBe(true);
  });

  it('answers wrong passwords 401, then 429 per address and page, and counts nothing for a right one', async () => {
    const { sut } = await setup();
    const answers: unknown[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) answers.push(await code(sut.unlock('locked', 'guess', '192.0.2.9')));
    expect(answers).toEqual([...new Array(5).fill([401, 'statusPages.passwordWrong']), [429, 'statusPages.tooManyUnlocks']]);
    expect(await code(sut.unlock('locked', 'open-sesame', '192.0.2.9'))).toEqual([429, 'statusPages.tooManyUnlocks']);
    // Another address is not blocked by this one's guesses.
    await expect(sut.unlock('locked', 'open-sesame', '192.0.2.10')).resolves.toHaveProperty('name');
  });

  it('reads a Cookie header by name, the first of a repeated name winning', () => {
    expect(parseCookies('a=1; b=2=3;c=4; a=5; junk')).toEqual(
      new Map([
        ['a', '1'],
        ['b', '2=3'],
        ['c', '4'],
      ]),
    );
  });
});

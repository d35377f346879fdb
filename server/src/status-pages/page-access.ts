import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import {
  LOGIN_BLOCK_BASE_MS,
  LOGIN_BLOCK_MAX_MS,
  LOGIN_FORGET_AFTER_MS,
  LOGIN_FREE_FAILURES_PER_ADDRESS,
  LOGIN_FREE_FAILURES_PER_PAIR,
  type MessageCode,
} from '@vigil/proto';
import { TokenService } from '../auth/token.service';
import { notFound, tooManyRequests, unauthorized } from '../common/api-exception';
import { penaltyPolicy } from '../common/limits/limit-store';
import { Limiter, retryAfterSeconds } from '../common/limits/limiter';
import type { PageUnlock } from '../subscriptions/page-unlock';
import { PasswordHasher } from '../users/password-hasher';
import { PageDirectory } from './page-directory';
import { isPageSlug } from './page-rules';
import type { PageKey } from './status-pages.repository';

/** How long an unlock lasts: a visitor types the password again after this, or at once after it changes. */
export const UNLOCK_DAYS = 30;
const PURPOSE = 'status-page-unlock';

const penalty = { baseMs: LOGIN_BLOCK_BASE_MS, maxMs: LOGIN_BLOCK_MAX_MS, forgetMs: LOGIN_FORGET_AFTER_MS };
/** Wrong passwords of one address for one page, then of one address for any page: as sign-in counts them. */
export const UNLOCK_PAIR = penaltyPolicy('page-unlock-pair', { free: LOGIN_FREE_FAILURES_PER_PAIR, ...penalty });
export const UNLOCK_ADDRESS = penaltyPolicy('page-unlock-address', { free: LOGIN_FREE_FAILURES_PER_ADDRESS, ...penalty });

/** One cookie per page, on every path (the socket.io handshake carries it too), so pages never share an unlock. */
export const unlockCookieName = (pageId: number) => `vigil_page_${pageId}`;

export interface UnlockCookie {
  name: string;
  value: string;
  maxAgeMs: number;
}

/** The cookies of a `Cookie` header, by name (the first of a repeated name wins, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/**
 * Who may read a password page: whoever holds its unlock cookie, `<expiry seconds>.<HMAC>` signed with the server's
 * secret over the page's id, the expiry and its password hash, so a new password voids every cookie at once and no
 * instance needs to remember anything. Unlocking is rate limited per address like sign-in, through the one limiter.
 */
@Injectable()
export class PageAccess implements PageUnlock {
  constructor(
    private readonly tokens: TokenService,
    private readonly directory: PageDirectory,
    private readonly hasher: PasswordHasher,
    private readonly limiter: Limiter,
  ) {}

  /** The page a public route names, if the caller may read it: 404 for no such page, 401 for a locked one. */
  async readable(slug: string, cookieHeader: string | undefined): Promise<PageKey> {
    const page = isPageSlug(slug) ? await this.directory.bySlug(slug) : null;
    if (!page) throw notFound('statusPages.notFound');
    if (!this.opens(page, cookieHeader)) throw unauthorized('statusPages.locked');
    return page;
  }

  /** Why a socket with these handshake cookies may not join the page's room; null when it may. */
  async joinRefusal(slug: string, cookieHeader: string | undefined): Promise<MessageCode | null> {
    const page = isPageSlug(slug) ? await this.directory.bySlug(slug) : null;
    if (!page) return 'statusPages.notFound';
    return this.opens(page, cookieHeader) ? null : 'statusPages.locked';
  }

  /** For the subscriptions module: the same rule, given the page. */
  unlocked(page: { id: number; passwordHash: string }, request: Request): boolean {
    return this.valid(page.id, page.passwordHash, parseCookies(request.headers.cookie).get(unlockCookieName(page.id)));
  }

  /** The cookie for a right password; 401 for a wrong one, 429 once this address has guessed too often. */
  async unlock(slug: string, password: string, address: string): Promise<UnlockCookie> {
    const page = isPageSlug(slug) ? await this.directory.bySlug(slug) : null;
    if (!page) throw notFound('statusPages.notFound');
    const pair = `${address}|${page.id}`;
    const wait = Math.max(await this.limiter.blockedFor(UNLOCK_PAIR, pair), await this.limiter.blockedFor(UNLOCK_ADDRESS, address));
    if (wait > 0) throw tooManyRequests('statusPages.tooManyUnlocks', retryAfterSeconds(wait));
    // A page without a password opens for anyone; the cookie still says so, harmlessly.
    if (page.password_hash && !(await this.hasher.verify(page.password_hash, password))) {
      await this.limiter.fail(UNLOCK_PAIR, pair);
      await this.limiter.fail(UNLOCK_ADDRESS, address);
      throw unauthorized('statusPages.passwordWrong');
    }
    await this.limiter.forgive(UNLOCK_PAIR, pair);
    const expires = Math.floor(Date.now() / 1000) + UNLOCK_DAYS * 86_400;
    return {
      name: unlockCookieName(page.id),
      value: `${expires}.${this.signature(page.id, expires, page.password_hash ?? '')}`,
      maxAgeMs: UNLOCK_DAYS * 86_400_000,
    };
  }

  private opens(page: PageKey, cookieHeader: string | undefined): boolean {
    if (!page.password_hash) return true;
    return this.valid(page.id, page.password_hash, parseCookies(cookieHeader).get(unlockCookieName(page.id)));
  }

  private valid(pageId: number, passwordHash: string, cookie: string | undefined): boolean {
    const match = /^(\d{1,12})\.([\w-]{43})$/.exec(cookie ?? '');
    if (!match) return false;
    const expires = Number(match[1]);
    if (expires * 1000 <= Date.now()) return false;
    const expected = Buffer.from(this.signature(pageId, expires, passwordHash));
    const given = Buffer.from(match[2]);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private signature(pageId: number, expires: number, passwordHash: string): string {
    return this.tokens.mac(PURPOSE, `${pageId}.${expires}.${passwordHash}`);
  }
}

import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { DEFAULT_PAGE_SLUG, PageGroupItemsResponse, StatusPageDataResponse, STATUS_PAGE_LIMITS } from '@vigil/proto';
import { notFound } from '../common/api-exception';
import { BodyLimit } from '../common/body-parsing';
import { ClientIp, Public } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { PageAccess } from './page-access';
import { componentBadge, pageBadge, parseBadge } from './page-badges';
import { atomFeed, rssFeed } from './page-feeds';
import { PageProjections } from './page-projections.service';
import type { PageKey } from './status-pages.repository';
import { BadgeQuery, GroupItemsQuery, UnlockPageDto } from './status-pages.dto';

/**
 * Badges are fetched by other sites: a minute of caching, revalidated by ETag. A password page's only in the reader's
 * own cache: a shared cache (a proxy, a CDN) would hand the unlocked copy to anyone for that minute.
 */
const cacheable = (page: PageKey) => `${page.password_hash ? 'private' : 'public'}, max-age=60`;
/** Feeds are always revalidated; a password page's never kept by a shared cache either. */
const revalidated = (page: PageKey) => (page.password_hash ? 'private, no-cache' : 'no-cache');

/**
 * What anyone may read of a status page (nothing of a password page without its unlock cookie): its data, its groups'
 * items, its feeds and badges, all from the page's projection in memory; and the unlock itself.
 */
@ApiTags('status-pages')
@Controller('status-pages')
export class PublicPagesController {
  private readonly publicUrl: string | null;

  constructor(
    private readonly access: PageAccess,
    private readonly projections: PageProjections,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.publicUrl = config.publicUrl?.replace(/\/+$/, '') ?? null;
  }

  @Public()
  @Get(':slug/data')
  @Header('Cache-Control', 'no-cache')
  @Reply()
  async data(@Param('slug') slug: string, @Req() req: Request): Promise<Payload<StatusPageDataResponse>> {
    const page = await this.access.readable(slug, req.headers.cookie);
    return { data: await this.projections.pageData(page.id) };
  }

  @Public()
  @Get(':slug/groups/:index')
  @Header('Cache-Control', 'no-cache')
  @Reply()
  async group(
    @Param('slug') slug: string,
    @Param('index') index: string,
    @Query() query: GroupItemsQuery,
    @Req() req: Request,
  ): Promise<Payload<PageGroupItemsResponse>> {
    const page = await this.access.readable(slug, req.headers.cookie);
    if (!/^\d{1,3}$/.test(index)) throw notFound('statusPages.groupNotFound');
    return this.projections.groupItems(page.id, Number(index), query.offset ?? 0, query.limit ?? STATUS_PAGE_LIMITS.groupPageMax);
  }

  /** Sets the page's HttpOnly cookie for a right password (rate limited per address, as sign-in is). */
  @Public()
  @BodyLimit('credentials')
  @Post(':slug/unlock')
  @HttpCode(200)
  @Reply('statusPages.unlocked')
  async unlock(
    @Param('slug') slug: string,
    @Body() body: UnlockPageDto,
    @ClientIp() ip: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const cookie = await this.access.unlock(slug, body.password, ip);
    res.cookie(cookie.name, cookie.value, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/', maxAge: cookie.maxAgeMs });
  }

  @Public()
  @Get(':slug/feed.rss')
  @ApiProduces('application/rss+xml')
  async rss(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const page = await this.access.readable(slug, req.headers.cookie);
    const data = await this.projections.pageData(page.id);
    send(res, 'application/rss+xml; charset=utf-8', rssFeed(data, this.pageLink(page, req)), revalidated(page));
  }

  @Public()
  @Get(':slug/feed.atom')
  @ApiProduces('application/atom+xml')
  async atom(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const page = await this.access.readable(slug, req.headers.cookie);
    const data = await this.projections.pageData(page.id);
    const self = `${this.origin(req)}/api/status-pages/${page.slug}/feed.atom`;
    send(res, 'application/atom+xml; charset=utf-8', atomFeed(data, this.pageLink(page, req), self), revalidated(page));
  }

  @Public()
  @Get(':slug/badge.svg')
  @ApiProduces('image/svg+xml')
  async badge(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const page = await this.access.readable(slug, req.headers.cookie);
    const projection = await this.projections.projection(page.id);
    send(res, 'image/svg+xml', pageBadge(projection.settings.title, projection.overall), cacheable(page));
  }

  /** `m12` or `a3`, then `status`, `uptime` (`?days=1..90`, default the page's range), `response` or `cert` `.svg`. */
  @Public()
  @Get(':slug/badges/:component/:file')
  @ApiProduces('image/svg+xml')
  async componentBadge(
    @Param('slug') slug: string,
    @Param('component') component: string,
    @Param('file') file: string,
    @Query() query: BadgeQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const page = await this.access.readable(slug, req.headers.cookie);
    const badge = parseBadge(component, file);
    if (!badge) throw notFound('statusPages.badgeNotFound');
    const found = await this.projections.component(page.id, badge.key);
    if (!found) throw notFound('statusPages.badgeNotFound');
    const days = query.days ?? (await this.projections.projection(page.id)).options.historyDays;
    send(
      res,
      'image/svg+xml',
      componentBadge(found.component, badge.kind, { bars: found.bars, today: found.today, days }),
      cacheable(page),
    );
  }

  /** Where visitors read the page: its own domain, or `/status[/<slug>]` of this server. */
  private pageLink(page: PageKey, req: Request): string {
    if (page.domain) return `${req.protocol}://${page.domain}/`;
    return `${this.origin(req)}/status${page.slug === DEFAULT_PAGE_SLUG ? '' : `/${page.slug}`}`;
  }

  private origin(req: Request): string {
    return this.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  }
}

/** A non-JSON answer with a strong ETag; Express answers 304 when the reader's copy matches. */
function send(res: Response, type: string, body: string, cacheControl: string): void {
  res
    .status(200)
    .type(type)
    .set('Cache-Control', cacheControl)
    .set('ETag', `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`)
    .send(body);
}

import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { SubscribersResponse } from '@vigil/proto';
import type { Request, Response } from 'express';
import { ClientIp, Public, Roles } from '../common/decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { SubscribeDto, SubscribersQuery, TokenQuery } from './subscriptions.dto';
import { SubscriptionsService } from './subscriptions.service';

/** The links' answers are never cached, and the token in their address is sent nowhere as a referrer. */
const LINK_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** What visitors do: subscribe on a page, and open the links of the mails and posts they get. */
@ApiTags('subscriptions')
@Public()
@Controller()
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  /** 202 whatever the address's state: the answer tells nobody whether it is subscribed. */
  @Post('status-pages/:slug/subscribe')
  @HttpCode(202)
  @Reply('subscriptions.requested')
  subscribe(@Param('slug') slug: string, @Body() body: SubscribeDto, @ClientIp() ip: string, @Req() request: Request): Promise<void> {
    return this.subscriptions.subscribe(slug, body, { ip, request });
  }

  @Get('subscriptions/confirm')
  async confirm(@Query() query: TokenQuery, @Res() res: Response): Promise<void> {
    const location = await this.subscriptions.confirm(query.token);
    res.set(LINK_HEADERS).redirect(302, location);
  }

  @Get('subscriptions/unsubscribe')
  async unsubscribe(@Query() query: TokenQuery, @Res() res: Response): Promise<void> {
    const location = await this.subscriptions.unsubscribe(query.token);
    res.set(LINK_HEADERS).redirect(302, location);
  }

  /** RFC 8058 one-click: a mail client POSTs `List-Unsubscribe=One-Click` to the link; the body says nothing more. */
  @Post('subscriptions/unsubscribe')
  @HttpCode(200)
  @Reply('subscriptions.unsubscribed')
  async unsubscribeOneClick(@Query() query: TokenQuery): Promise<void> {
    await this.subscriptions.unsubscribe(query.token);
  }
}

/** Admins see and remove a page's subscribers (personal data: the addresses). */
@ApiTags('subscriptions')
@ApiBearerAuth()
@Roles('admin')
@Controller('status-pages')
export class SubscribersController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Get(':slug/subscribers')
  @Reply()
  list(@Param('slug') slug: string, @Query() query: SubscribersQuery): Promise<Payload<SubscribersResponse>> {
    return this.subscriptions.list(slug, query);
  }

  @Delete(':slug/subscribers/:id')
  @Reply('subscriptions.removed')
  remove(@Param('slug') slug: string, @Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.subscriptions.remove(slug, id);
  }
}

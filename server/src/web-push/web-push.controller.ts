import { Body, Controller, Delete, Get, Headers, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { WebPushKeyResponse, WebPushSubscriptionsResponse } from '@vigil/proto';
import { Auth, type AuthUser, SelfService } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { WebPushSubscribeDto, WebPushUnsubscribeDto } from './web-push.dto';
import { WebPushService } from './web-push.service';

/**
 * Browser notifications, for every signed-in user: the key a browser subscribes with and the caller's own browsers.
 * Not under `/api/push/`, which is the push monitors' heartbeat URL (`/api/push/{token}`). Self-service: a viewer may
 * have its own browsers notified too.
 */
@ApiTags('web-push')
@ApiBearerAuth()
@Controller('web-push')
export class WebPushController {
  constructor(private readonly webPush: WebPushService) {}

  @Get('key')
  @Reply()
  key(): Payload<WebPushKeyResponse> {
    return { data: { publicKey: this.webPush.publicKey() } };
  }

  @Get('subscriptions')
  @Reply()
  async list(@Auth() auth: AuthUser): Promise<Payload<WebPushSubscriptionsResponse>> {
    return { data: await this.webPush.list(auth) };
  }

  @SelfService()
  @Post('subscriptions')
  @Reply('webPush.subscribed')
  async subscribe(
    @Auth() auth: AuthUser,
    @Body() body: WebPushSubscribeDto,
    @Headers('user-agent') userAgent: string | undefined,
  ): Promise<{ data: { id: number } }> {
    return { data: { id: await this.webPush.subscribe(auth, body, userAgent) } };
  }

  @SelfService()
  @Delete('subscriptions')
  @Reply('webPush.unsubscribed')
  unsubscribe(@Auth() auth: AuthUser, @Body() body: WebPushUnsubscribeDto): Promise<void> {
    return this.webPush.unsubscribe(auth, body.endpoint);
  }
}

import { Module } from '@nestjs/common';
import { WebPushController } from './web-push.controller';
import { WebPushRepository } from './web-push.repository';
import { WebPushService } from './web-push.service';

@Module({
  controllers: [WebPushController],
  providers: [WebPushRepository, WebPushService],
  exports: [WebPushService],
})
export class WebPushModule {}

import { Module } from '@nestjs/common';
import { DisplayKeysModule } from '../display-keys/display-keys.module';
import { StatusPagesModule } from '../status-pages/status-pages.module';
import { PagePushesListener } from './page-pushes.listener';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeListener } from './realtime.listener';

@Module({
  imports: [DisplayKeysModule, StatusPagesModule],
  providers: [RealtimeGateway, RealtimeListener, PagePushesListener],
  exports: [RealtimeGateway],
})
export class RealtimeModule {}

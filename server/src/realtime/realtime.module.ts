import { Module } from '@nestjs/common';
import { DisplayKeysModule } from '../display-keys/display-keys.module';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeListener } from './realtime.listener';

@Module({ imports: [DisplayKeysModule], providers: [RealtimeGateway, RealtimeListener], exports: [RealtimeGateway] })
export class RealtimeModule {}

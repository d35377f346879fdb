import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { DisplayKeysModule } from '../display-keys/display-keys.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { StatusAssets } from './status-assets';
import { StatusController } from './status.controller';
import { StatusListener } from './status.listener';
import { StatusRepository } from './status.repository';
import { StatusService } from './status.service';

/** Public status page, NOC wall (with display keys) and the dashboard's summary. */
@Module({
  imports: [MonitorsModule, AgentsModule, RealtimeModule, DisplayKeysModule, AuthModule],
  controllers: [StatusController],
  providers: [StatusRepository, StatusService, StatusListener, StatusAssets],
})
export class StatusModule {}

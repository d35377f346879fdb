import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { AlertsController } from './alerts.controller';
import { MuteRepository } from './alerts.repository';
import { AlertsApiService } from './alerts.service';
import { MuteController } from './mute.controller';

@Module({
  imports: [NotificationsModule, MonitorsModule, AgentsModule],
  controllers: [AlertsController, MuteController],
  providers: [AlertsApiService, MuteRepository],
})
export class AlertsModule {}

import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ProbesModule } from '../probes/probes.module';
import { UsersModule } from '../users/users.module';
import { EventLoopDelay } from './event-loop-delay';
import { MetricsController } from './metrics.controller';
import { MetricsRepository } from './metrics.repository';
import { MetricsService } from './metrics.service';

@Module({
  imports: [MonitorsModule, AgentsModule, NotificationsModule, UsersModule, ProbesModule],
  controllers: [MetricsController],
  providers: [MetricsService, MetricsRepository, EventLoopDelay],
})
export class MetricsModule {}

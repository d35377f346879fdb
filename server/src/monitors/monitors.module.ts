import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { REDIS, type RedisHandle } from '../redis/redis.module';
import { CheckResultsWriter } from './check-results.writer';
import { DependenciesModule } from './dependencies/dependencies.module';
import { DependentsRecheck } from './dependencies/dependents-recheck.listener';
import { CheckScheduler } from './check-scheduler.service';
import { InProcessCheckScheduler } from './in-process-check-scheduler.service';
import { CheckPipeline } from './check-pipeline';
import { HttpChecker } from './types/http/http.checker';
import { GroupsService } from './groups/groups.service';
import { MonitorStats } from './monitor-stats';
import { MonitorStatsRepository } from './monitor-stats.repository';
import { MonitorsController } from './monitors.controller';
import { PushService } from './push.service';
import { MonitorsRepository } from './monitors.repository';
import { MonitorsService } from './monitors.service';
import { QueueCheckScheduler } from './queue-check-scheduler.service';
import { RetentionService } from './retention.service';
import { BrowserScreenshotController } from './types/browser/browser-screenshot.controller';
import { BrowserScreenshots } from './types/browser/browser-screenshots';
import { ManualStatusController } from './types/manual/manual-status.controller';
import { ManualStatusService } from './types/manual/manual-status.service';
import { LocationsController } from './locations/locations.controller';
import { LocationResults } from './locations/location-results.service';
import { LocationVerdicts } from './locations/location-verdicts';
import { LocationsRepository } from './locations/locations.repository';
import { HostContextRepository } from '../agents/host-context.repository';
import { MonitorHostController } from './host/monitor-host.controller';
import { MonitorHostService } from './host/monitor-host.service';
@Module({
  imports: [DependenciesModule],
  controllers: [MonitorsController, ManualStatusController, BrowserScreenshotController, LocationsController, MonitorHostController],
  providers: [
    MonitorsRepository,
    CheckPipeline,
    // The HTTP checker's request timings are read by /api/metrics.
    { provide: HttpChecker, inject: [CheckPipeline], useFactory: (pipeline: CheckPipeline) => pipeline.checkers.http },
    CheckResultsWriter,
    {
      // One process alone schedules in memory; instances sharing a Redis share BullMQ job schedulers.
      provide: CheckScheduler,
      inject: [REDIS, MonitorsRepository, CheckPipeline, CheckResultsWriter, APP_CONFIG],
      useFactory: (
        redis: RedisHandle | null,
        monitors: MonitorsRepository,
        checker: CheckPipeline,
        writer: CheckResultsWriter,
        config: AppConfig,
      ) =>
        redis
          ? new QueueCheckScheduler(redis, monitors, checker, writer, config)
          : new InProcessCheckScheduler(monitors, checker, writer, config),
    },
    MonitorStats,
    MonitorStatsRepository,
    MonitorsService,
    GroupsService,
    PushService,
    RetentionService,
    DependentsRecheck,
    ManualStatusService,
    BrowserScreenshots,
    LocationsRepository,
    LocationResults,
    LocationVerdicts,
    HostContextRepository,
    MonitorHostService,
  ],
  exports: [
    DependenciesModule,
    MonitorsService,
    MonitorsRepository,
    CheckScheduler,
    CheckResultsWriter,
    CheckPipeline,
    HttpChecker,
    LocationResults,
  ],
})
export class MonitorsModule {}

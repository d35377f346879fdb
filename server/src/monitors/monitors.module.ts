import { Module } from '@nestjs/common';
import { CheckResultsWriter } from './check-results.writer';
import { CheckScheduler } from './check-scheduler.service';
import { HttpChecker } from './http-checker';
import { MonitorStats } from './monitor-stats';
import { MonitorsController } from './monitors.controller';
import { MonitorsRepository } from './monitors.repository';
import { MonitorsService } from './monitors.service';
import { RetentionService } from './retention.service';

@Module({
  controllers: [MonitorsController],
  providers: [MonitorsRepository, HttpChecker, CheckResultsWriter, CheckScheduler, MonitorStats, MonitorsService, RetentionService],
  exports: [MonitorsService, MonitorsRepository, CheckScheduler, CheckResultsWriter],
})
export class MonitorsModule {}

import { Module } from '@nestjs/common';
import { MonitorStatsRepository } from '../monitors/monitor-stats.repository';
import { StatusPagesModule } from '../status-pages/status-pages.module';
import { ExportReadsRepository } from './export-reads.repository';
import { ExportsController } from './exports.controller';
import { ExportsService } from './exports.service';

/** Data export (issue 34): checks, agent metrics and the monthly availability report as files. */
@Module({
  // The days `monitor_daily` holds (MonitorDaily), which answer most of a month's report.
  imports: [StatusPagesModule],
  controllers: [ExportsController],
  // The check history's own repository (stateless), so exports read checks as the statistics do.
  providers: [ExportsService, ExportReadsRepository, MonitorStatsRepository],
})
export class ExportsModule {}

import { Module } from '@nestjs/common';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { StatusPagesModule } from '../status-pages/status-pages.module';
import { ApplyService } from './apply.service';
import { ConfigAsCodeController } from './config-as-code.controller';
import { ConfigKeysRepository } from './config-keys.repository';
import { ConfigReader } from './config-reader';
import { ConfigWriter } from './config-writer';
import { ExportService } from './export.service';

/**
 * Monitors as code: `GET /api/export`, `GET /api/export/schema`, `POST /api/apply`. `ApplyService` is exported for the
 * Uptime Kuma import, which applies its document in the same one transaction (see apply.service.ts).
 */
@Module({
  imports: [MonitorsModule, NotificationsModule, MaintenanceModule, StatusPagesModule],
  controllers: [ConfigAsCodeController],
  providers: [ApplyService, ConfigReader, ConfigWriter, ConfigKeysRepository, ExportService],
  exports: [ApplyService, ConfigKeysRepository],
})
export class ConfigAsCodeModule {}

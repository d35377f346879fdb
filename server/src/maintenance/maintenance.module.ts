import { Module } from '@nestjs/common';
import { MonitorsModule } from '../monitors/monitors.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { MaintenanceController } from './maintenance.controller';
import { MaintenanceNotices } from './maintenance-notices';
import { MaintenanceRepository } from './maintenance.repository';
import { MaintenanceService } from './maintenance.service';
import { MaintenanceSweep } from './maintenance-sweep.service';

/** Maintenance windows and the sweep that starts and ends them; `MaintenanceService.forPage` is what status pages show. */
@Module({
  imports: [MonitorsModule, NotificationsModule],
  controllers: [MaintenanceController],
  providers: [MaintenanceRepository, MaintenanceService, MaintenanceSweep, MaintenanceNotices],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}

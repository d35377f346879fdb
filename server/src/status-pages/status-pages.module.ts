import { Module } from '@nestjs/common';
import { IncidentsModule } from '../incidents/incidents.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { StatusAssets } from '../status/status-assets';
import { PAGE_UNLOCK } from '../subscriptions/page-unlock';
import { UsersModule } from '../users/users.module';
import { MonitorDaily } from './monitor-daily';
import { PageAccess } from './page-access';
import { PageDataRepository } from './page-data.repository';
import { PageDirectory } from './page-directory';
import { PageProjections } from './page-projections.service';
import { PageStoriesSource } from './page-stories';
import { PublicPagesController } from './public-pages.controller';
import { StatusPagesController } from './status-pages.controller';
import { StatusPagesListener } from './status-pages.listener';
import { StatusPagesRepository } from './status-pages.repository';
import { StatusPagesService } from './status-pages.service';

/**
 * Status pages as rows (`/status` is the page `default`): their configuration, one projection per page in memory,
 * their public data, feeds and badges, and who may read a password page. The realtime module pushes the pages'
 * changes to their rooms (`status:<slug>`) through `PageProjections` and asks `PageAccess` who may join them.
 */
@Module({
  imports: [UsersModule, IncidentsModule, MaintenanceModule],
  controllers: [StatusPagesController, PublicPagesController],
  providers: [
    StatusPagesRepository,
    StatusPagesService,
    PageDataRepository,
    PageDirectory,
    PageProjections,
    MonitorDaily,
    PageStoriesSource,
    PageAccess,
    StatusPagesListener,
    StatusAssets,
    // The subscriptions module's view of the unlock rule (a password page takes subscriptions only when unlocked).
    { provide: PAGE_UNLOCK, useExisting: PageAccess },
  ],
  exports: [PageProjections, PageAccess, PageDirectory, PAGE_UNLOCK, StatusPagesService, MonitorDaily],
})
export class StatusPagesModule {}

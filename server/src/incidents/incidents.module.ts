import { Module } from '@nestjs/common';
import { IncidentDrafts } from './incident-drafts.service';
import { IncidentDraftsRepository } from './incident-drafts.repository';
import { IncidentsController } from './incidents.controller';
import { IncidentsRepository } from './incidents.repository';
import { IncidentsService } from './incidents.service';

/** Incidents and their timelines; `IncidentsService.forPage` is what status pages show of them. */
@Module({
  controllers: [IncidentsController],
  providers: [IncidentsService, IncidentsRepository, IncidentDrafts, IncidentDraftsRepository],
  exports: [IncidentsService],
})
export class IncidentsModule {}

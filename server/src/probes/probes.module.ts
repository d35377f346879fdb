import { Module } from '@nestjs/common';
import { ProbeAssignments } from './probe-assignments.service';
import { ProbeAssignmentsRepository } from './probe-assignments.repository';
import { ProbeResults } from './probe-results.service';

/** Checks run by agents: what each probing agent is sent, and the results it sends back (issue 32). */
@Module({
  providers: [ProbeAssignmentsRepository, ProbeAssignments, ProbeResults],
  exports: [ProbeAssignments, ProbeResults],
})
export class ProbesModule {}

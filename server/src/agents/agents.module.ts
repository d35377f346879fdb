import { AgentDevicesRepository } from './agent-devices.repository';
import { Module } from '@nestjs/common';
import { DependenciesModule } from '../monitors/dependencies/dependencies.module';
import { ProbesModule } from '../probes/probes.module';
import { AgentGateway } from './agent.gateway';
import { AgentPresence } from './agent-presence.service';
import { AgentReportsWriter } from './agent-reports.writer';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { ReportLimiter } from './report-limiter';

@Module({
  imports: [DependenciesModule, ProbesModule],
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentDevicesRepository, AgentReportsWriter, AgentPresence, AgentsService, AgentGateway, ReportLimiter],
  exports: [AgentsService, AgentsRepository, AgentReportsWriter, AgentGateway, ReportLimiter],
})
export class AgentsModule {}

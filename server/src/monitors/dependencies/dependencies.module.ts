import { Module } from '@nestjs/common';
import { DependenciesRepository } from './dependencies.repository';
import { DependenciesService } from './dependencies.service';
import { DependencyChainController } from './dependency-chain.controller';
import { DependencyChainRepository } from './dependency-chain.repository';
import { DependencyChainService } from './dependency-chain.service';

/** Dependencies between monitors and agents: shared by both modules (validation on save, states when deciding). */
@Module({
  // The detail pages' chain (`GET /api/{monitors,agents}/:id/dependencies`) reads the same lists.
  controllers: [DependencyChainController],
  providers: [DependenciesRepository, DependenciesService, DependencyChainRepository, DependencyChainService],
  exports: [DependenciesRepository, DependenciesService],
})
export class DependenciesModule {}

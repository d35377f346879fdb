import { Injectable } from '@nestjs/common';
import { DEPENDENCY_CHAIN_DEPTH, type DependencyChainResponse, type DependencyRef } from '@vigil/proto';
import { notFound } from '../../common/api-exception';
import type { Payload } from '../../common/reply';
import { DependencyChainRepository } from './dependency-chain.repository';

/** The detail pages' chain: what a monitor or agent depends on and what depends on it, each with its status. */
@Injectable()
export class DependencyChainService {
  constructor(private readonly chains: DependencyChainRepository) {}

  async chainOf(target: DependencyRef): Promise<Payload<DependencyChainResponse>> {
    if (!(await this.chains.exists(target))) throw notFound(target.type === 'monitor' ? 'monitors.notFound' : 'agents.notFound');
    const [dependencies, dependents] = await Promise.all([
      this.chains.dependenciesOf(target, DEPENDENCY_CHAIN_DEPTH),
      this.chains.dependentsOf(target, DEPENDENCY_CHAIN_DEPTH),
    ]);
    return { dependencies, dependents };
  }
}

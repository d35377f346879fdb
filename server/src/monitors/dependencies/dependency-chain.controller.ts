import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { DependencyChainResponse } from '@vigil/proto';
import { ParseRouteIdPipe } from '../../common/parse-id.pipe';
import { Payload, Reply } from '../../common/reply';
import { DependencyChainService } from './dependency-chain.service';

/** The detail pages' dependency chains; read by every signed-in user, like the monitors and agents themselves. */
@ApiTags('dependencies')
@ApiBearerAuth()
@Controller()
export class DependencyChainController {
  constructor(private readonly chains: DependencyChainService) {}

  @Get('monitors/:id/dependencies')
  @Reply()
  ofMonitor(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<DependencyChainResponse>> {
    return this.chains.chainOf({ type: 'monitor', id });
  }

  @Get('agents/:id/dependencies')
  @Reply()
  ofAgent(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<DependencyChainResponse>> {
    return this.chains.chainOf({ type: 'agent', id });
  }
}

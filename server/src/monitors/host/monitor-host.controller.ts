import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { MonitorHostResponse } from '@vigil/proto';
import { ParseRouteIdPipe } from '../../common/parse-id.pipe';
import { Payload, Reply } from '../../common/reply';
import { MonitorHostService } from './monitor-host.service';

/** The host a monitor runs on, for its detail page; any signed-in user, as monitors are (the global guard). */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('monitors')
export class MonitorHostController {
  constructor(private readonly hosts: MonitorHostService) {}

  @Get(':id/host')
  @Reply()
  async host(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<MonitorHostResponse>> {
    return { host: await this.hosts.host(id) };
  }
}

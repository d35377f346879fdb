import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { MonitorLocationsResponse } from '@vigil/proto';
import { ParseRouteIdPipe } from '../../common/parse-id.pipe';
import { Payload, Reply } from '../../common/reply';
import { LocationResults } from './location-results.service';

/** Where a monitor is checked from and what each location sees; read by every signed-in user, as monitors are. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('monitors')
export class LocationsController {
  constructor(private readonly results: LocationResults) {}

  @Get(':id/locations')
  @Reply()
  locations(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<MonitorLocationsResponse>> {
    return this.results.read(id);
  }
}

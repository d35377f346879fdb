import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { MaintenanceCalendarResponse, MaintenanceListResponse, MaintenanceResponse } from '@vigil/proto';
import { BodyLimit } from '../common/body-parsing';
import { ParseRouteIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { CalendarQuery, MaintenanceQuery, SaveMaintenanceDto } from './maintenance.dto';
import { MaintenanceService } from './maintenance.service';

/**
 * Maintenance windows: every signed-in user reads them; users and admins write them, as they do monitors (a viewer's
 * write is refused by the global read-only rule). A scope may name every monitor and agent.
 */
@ApiTags('maintenance')
@ApiBearerAuth()
@Controller('maintenance')
export class MaintenanceController {
  constructor(private readonly maintenance: MaintenanceService) {}

  @Get()
  @Reply()
  list(@Query() query: MaintenanceQuery): Promise<Payload<MaintenanceListResponse>> {
    return this.maintenance.list(query);
  }

  @Post()
  @BodyLimit('scope')
  @Reply('maintenance.created')
  async create(@Body() body: SaveMaintenanceDto): Promise<Payload<MaintenanceResponse>> {
    return { maintenance: await this.maintenance.create(body) };
  }

  /** Before `:id`. */
  @Get('calendar')
  @Reply()
  calendar(@Query() query: CalendarQuery): Promise<Payload<MaintenanceCalendarResponse>> {
    return this.maintenance.calendar(query);
  }

  @Get(':id')
  @Reply()
  async get(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<MaintenanceResponse>> {
    return { maintenance: await this.maintenance.get(id) };
  }

  @Put(':id')
  @BodyLimit('scope')
  @Reply('maintenance.updated')
  async update(@Param('id', ParseRouteIdPipe) id: number, @Body() body: SaveMaintenanceDto): Promise<Payload<MaintenanceResponse>> {
    return { maintenance: await this.maintenance.update(id, body) };
  }

  @Delete(':id')
  @Reply('maintenance.deleted')
  remove(@Param('id', ParseRouteIdPipe) id: number): Promise<void> {
    return this.maintenance.remove(id);
  }

  /** Ends the span applied now (a manual window is switched off); 409 when none is. */
  @Post(':id/end')
  @HttpCode(200)
  @Reply('maintenance.ended')
  async end(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<MaintenanceResponse>> {
    return { maintenance: await this.maintenance.end(id) };
  }
}

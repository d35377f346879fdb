import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { IncidentResponse, IncidentsResponse } from '@vigil/proto';
import { BodyLimit } from '../common/body-parsing';
import { Auth, AuthUser } from '../common/decorators';
import { ParseRouteIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { AddIncidentUpdateDto, CreateIncidentDto, IncidentsQuery, SaveIncidentDto } from './incidents.dto';
import { IncidentsService } from './incidents.service';

/**
 * Incidents: every signed-in user reads them (drafts too); users and admins write them, as they do monitors (a
 * viewer's write is refused by the global read-only rule). Bodies may name every monitor and agent.
 */
@ApiTags('incidents')
@ApiBearerAuth()
@Controller('incidents')
export class IncidentsController {
  constructor(private readonly incidents: IncidentsService) {}

  @Get()
  @Reply()
  list(@Query() query: IncidentsQuery): Promise<Payload<IncidentsResponse>> {
    return this.incidents.list(query);
  }

  @Post()
  @BodyLimit('selection')
  @Reply('incidents.created')
  async create(@Body() body: CreateIncidentDto, @Auth() user: AuthUser): Promise<Payload<IncidentResponse>> {
    return { incident: await this.incidents.create(body, user) };
  }

  @Get(':id')
  @Reply()
  async get(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<IncidentResponse>> {
    return { incident: await this.incidents.get(id) };
  }

  @Put(':id')
  @BodyLimit('selection')
  @Reply('incidents.saved')
  async save(@Param('id', ParseRouteIdPipe) id: number, @Body() body: SaveIncidentDto): Promise<Payload<IncidentResponse>> {
    return { incident: await this.incidents.save(id, body) };
  }

  @Delete(':id')
  @Reply('incidents.deleted')
  remove(@Param('id', ParseRouteIdPipe) id: number): Promise<void> {
    return this.incidents.remove(id);
  }

  @Post(':id/updates')
  @BodyLimit('large')
  @Reply('incidents.updatePosted')
  async addUpdate(
    @Param('id', ParseRouteIdPipe) id: number,
    @Body() body: AddIncidentUpdateDto,
    @Auth() user: AuthUser,
  ): Promise<Payload<IncidentResponse>> {
    return { incident: await this.incidents.addUpdate(id, body, user) };
  }
}

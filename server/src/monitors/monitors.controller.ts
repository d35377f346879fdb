import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  CheckResponse,
  ChecksPageResponse,
  MESSAGES,
  MessageResponse,
  MonitorResponse,
  MonitorsResponse,
  MonitorStatsResponse,
} from '@vigil/proto';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { ChecksQuery, CreateMonitorDto, ListMonitorsQuery, StatsQuery, UpdateMonitorDto } from './monitors.dto';
import { MonitorsService } from './monitors.service';

/** Monitors are shared by every signed-in user (spec section 6); the global guard requires a token. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('monitors')
export class MonitorsController {
  constructor(private readonly monitors: MonitorsService) {}

  @Get()
  async list(@Query() query: ListMonitorsQuery): Promise<MonitorsResponse> {
    return { success: true, ...(await this.monitors.list(query)) };
  }

  @Post()
  async create(@Body() body: CreateMonitorDto): Promise<MonitorResponse> {
    return { success: true, message: MESSAGES['monitors.created'], monitor: await this.monitors.create(body) };
  }

  @Get(':id')
  async get(@Param('id', ParseIdPipe) id: number): Promise<MonitorResponse> {
    return { success: true, monitor: await this.monitors.get(id) };
  }

  @Put(':id')
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateMonitorDto): Promise<MonitorResponse> {
    return { success: true, message: MESSAGES['monitors.updated'], monitor: await this.monitors.update(id, body) };
  }

  @Delete(':id')
  async remove(@Param('id', ParseIdPipe) id: number): Promise<MessageResponse> {
    await this.monitors.remove(id);
    return { success: true, message: MESSAGES['monitors.deleted'] };
  }

  @Post(':id/check')
  @HttpCode(200)
  async check(@Param('id', ParseIdPipe) id: number): Promise<CheckResponse> {
    return { success: true, message: MESSAGES['monitors.checkCompleted'], ...(await this.monitors.checkNow(id)) };
  }

  @Post(':id/pause')
  @HttpCode(200)
  async pause(@Param('id', ParseIdPipe) id: number): Promise<MonitorResponse> {
    return { success: true, message: MESSAGES['monitors.paused'], monitor: await this.monitors.setActive(id, false) };
  }

  @Post(':id/resume')
  @HttpCode(200)
  async resume(@Param('id', ParseIdPipe) id: number): Promise<MonitorResponse> {
    return { success: true, message: MESSAGES['monitors.resumed'], monitor: await this.monitors.setActive(id, true) };
  }

  @Get(':id/stats')
  async stats(@Param('id', ParseIdPipe) id: number, @Query() query: StatsQuery): Promise<MonitorStatsResponse> {
    return { success: true, stats: await this.monitors.statsFor(id, query.range ?? '24h') };
  }

  @Get(':id/checks')
  async checks(@Param('id', ParseIdPipe) id: number, @Query() query: ChecksQuery): Promise<ChecksPageResponse> {
    return { success: true, ...(await this.monitors.checks(id, query.page ?? 1, query.pageSize ?? 50)) };
  }
}

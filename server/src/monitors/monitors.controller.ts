import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type {
  CheckResponse,
  ChecksPageResponse,
  MonitorLimitsResponse,
  MonitorResponse,
  MonitorsResponse,
  MonitorStatsResponse,
  MonitorTestResponse,
} from '@vigil/proto';
import { Auth, AuthUser, ClientIp } from '../common/decorators';
import { ParseRouteIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { ChecksQuery, CreateMonitorDto, ListMonitorsQuery, StatsQuery, TestMonitorDto, UpdateMonitorDto } from './monitors.dto';
import { MonitorsService } from './monitors.service';
import { BodyLimit } from '../common/body-parsing';

/** Monitors are shared by every signed-in user (spec section 6); the global guard requires a token. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('monitors')
export class MonitorsController {
  constructor(private readonly monitors: MonitorsService) {}

  @Get()
  @Reply()
  list(@Query() query: ListMonitorsQuery): Promise<Payload<MonitorsResponse>> {
    return this.monitors.list(query);
  }

  @BodyLimit('large')
  @Post()
  @Reply('monitors.created')
  async create(@Body() body: CreateMonitorDto, @Auth() user: AuthUser): Promise<Payload<MonitorResponse>> {
    return { monitor: await this.monitors.create(body, user.role) };
  }

  /** This server's bounds (the shortest interval), read by the monitor form; before `:id`. */
  @Get('limits')
  @Reply()
  limits(): Payload<MonitorLimitsResponse> {
    return this.monitors.limits();
  }

  /** One check of an unsaved body, nothing stored; rate limited per user and address (it reaches out). */
  @BodyLimit('large')
  @Post('test')
  @HttpCode(200)
  @Reply('monitors.testCompleted')
  test(@Body() body: TestMonitorDto, @Auth() user: AuthUser, @ClientIp() address: string): Promise<Payload<MonitorTestResponse>> {
    return this.monitors.test(body, { userId: user.id, role: user.role, address });
  }

  @Get(':id')
  @Reply()
  async get(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<MonitorResponse>> {
    return { monitor: await this.monitors.get(id) };
  }

  @BodyLimit('large')
  @Put(':id')
  @Reply('monitors.updated')
  async update(
    @Param('id', ParseRouteIdPipe) id: number,
    @Body() body: UpdateMonitorDto,
    @Auth() user: AuthUser,
  ): Promise<Payload<MonitorResponse>> {
    return { monitor: await this.monitors.update(id, body, user.role) };
  }

  @Delete(':id')
  @Reply('monitors.deleted')
  remove(@Param('id', ParseRouteIdPipe) id: number): Promise<void> {
    return this.monitors.remove(id);
  }

  @Post(':id/check')
  @HttpCode(200)
  @Reply('monitors.checkCompleted')
  check(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<CheckResponse>> {
    return this.monitors.checkNow(id);
  }

  @Post(':id/pause')
  @HttpCode(200)
  @Reply('monitors.paused')
  async pause(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<MonitorResponse>> {
    return { monitor: await this.monitors.setActive(id, false) };
  }

  @Post(':id/resume')
  @HttpCode(200)
  @Reply('monitors.resumed')
  async resume(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<MonitorResponse>> {
    return { monitor: await this.monitors.setActive(id, true) };
  }

  @Get(':id/stats')
  @Reply()
  async stats(@Param('id', ParseRouteIdPipe) id: number, @Query() query: StatsQuery): Promise<Payload<MonitorStatsResponse>> {
    return { stats: await this.monitors.statsFor(id, query.range ?? '24h') };
  }

  @Get(':id/checks')
  @Reply()
  checks(@Param('id', ParseRouteIdPipe) id: number, @Query() query: ChecksQuery): Promise<Payload<ChecksPageResponse>> {
    return this.monitors.checks(id, query.page ?? 1, query.pageSize ?? 50);
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AlertResponse, AlertsResponse } from '@vigil/proto';
import { Auth, AuthUser } from '../common/decorators';
import { ParseRouteIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { AlertAckDto, AlertsQuery } from './alerts.dto';
import { AlertsApiService } from './alerts.service';

/** Alert episodes: every signed-in user reads them; users and admins acknowledge (viewers only read). */
@ApiTags('alerts')
@ApiBearerAuth()
@Controller('alerts')
export class AlertsController {
  constructor(private readonly alerts: AlertsApiService) {}

  @Get()
  @Reply()
  list(@Query() query: AlertsQuery): Promise<Payload<AlertsResponse>> {
    return this.alerts.page(query);
  }

  @Get(':id')
  @Reply()
  async get(@Param('id', ParseRouteIdPipe) id: number): Promise<Payload<AlertResponse>> {
    return { alert: await this.alerts.get(id) };
  }

  @Post(':id/ack')
  @HttpCode(200)
  @Reply('alerts.acknowledged')
  async acknowledge(
    @Param('id', ParseRouteIdPipe) id: number,
    @Body() body: AlertAckDto,
    @Auth() user: AuthUser,
  ): Promise<Payload<AlertResponse>> {
    return { alert: await this.alerts.acknowledge(id, body, user) };
  }
}

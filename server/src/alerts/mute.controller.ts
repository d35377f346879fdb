import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ParseRouteIdPipe } from '../common/parse-id.pipe';
import { Reply } from '../common/reply';
import { MuteDto } from './alerts.dto';
import { AlertsApiService } from './alerts.service';

/** Mute a monitor's or an agent's notifications until a time (viewers refused, as every write). */
@ApiTags('alerts')
@ApiBearerAuth()
@Controller()
export class MuteController {
  constructor(private readonly alerts: AlertsApiService) {}

  @Post('monitors/:id/mute')
  @HttpCode(200)
  @Reply('alerts.muted')
  async muteMonitor(@Param('id', ParseRouteIdPipe) id: number, @Body() body: MuteDto): Promise<{ data: { muted_until: string | null } }> {
    return { data: await this.alerts.mute('monitor', id, body) };
  }

  @Post('agents/:id/mute')
  @HttpCode(200)
  @Reply('alerts.muted')
  async muteAgent(@Param('id', ParseRouteIdPipe) id: number, @Body() body: MuteDto): Promise<{ data: { muted_until: string | null } }> {
    return { data: await this.alerts.mute('agent', id, body) };
  }
}

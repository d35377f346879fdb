import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { CheckResponse } from '@vigil/proto';
import { ParseRouteIdPipe } from '../../../common/parse-id.pipe';
import { Payload, Reply } from '../../../common/reply';
import { SetMonitorStatusDto } from './manual-status.dto';
import { ManualStatusService } from './manual-status.service';

/** Manual monitors' status (issue 33): by any signed-in user, like a check now; the global guard requires a token. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('monitors')
export class ManualStatusController {
  constructor(private readonly manual: ManualStatusService) {}

  @Post(':id/status')
  @HttpCode(200)
  @Reply('monitors.manualStatusSet')
  set(@Param('id', ParseRouteIdPipe) id: number, @Body() body: SetMonitorStatusDto): Promise<Payload<CheckResponse>> {
    return this.manual.set(id, body);
  }
}

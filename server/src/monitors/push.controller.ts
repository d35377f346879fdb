import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientIp, Public } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { PushQuery } from './push.dto';
import { PushService } from './push.service';

/** Answer of a push; `ok` as Uptime Kuma answers, so scripts written for it keep reading it. */
interface PushResponse {
  success: true;
  ok: true;
}

/** `GET` or `POST /api/push/{token}?status=up|down&msg=&ping=`: Uptime Kuma's push URL; the token is the credential. */
@ApiTags('push')
@Controller('push')
export class PushController {
  constructor(private readonly pushes: PushService) {}

  @Public()
  @Get(':token')
  @Reply('push.recorded')
  get(@Param('token') token: string, @Query() query: PushQuery, @ClientIp() address: string): Promise<Payload<PushResponse>> {
    return this.record(token, query, address);
  }

  @Public()
  @Post(':token')
  @HttpCode(200)
  @Reply('push.recorded')
  post(@Param('token') token: string, @Query() query: PushQuery, @ClientIp() address: string): Promise<Payload<PushResponse>> {
    return this.record(token, query, address);
  }

  private async record(token: string, query: PushQuery, address: string): Promise<Payload<PushResponse>> {
    await this.pushes.push(token, query, address);
    return { ok: true };
  }
}

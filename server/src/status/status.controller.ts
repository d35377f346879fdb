import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  DashboardResponse,
  DisplayKeyCreatedResponse,
  DisplayKeysResponse,
  MESSAGES,
  MessageResponse,
  StatusConfigResponse,
  StatusDataResponse,
  WallDataResponse,
} from '@vigil/proto';
import { notFound, unauthorized } from '../common/api-exception';
import { Auth, AuthUser, Public, Roles } from '../common/decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { SessionService } from '../auth/session.service';
import { DisplayKeysService } from '../display-keys/display-keys.service';
import { badgeSvg } from './badge';
import { CreateDisplayKeyDto, SaveStatusConfigDto } from './status.dto';
import { StatusService } from './status.service';

@ApiTags('status')
@ApiBearerAuth()
@Controller()
export class StatusController {
  constructor(
    private readonly status: StatusService,
    private readonly displayKeys: DisplayKeysService,
    private readonly sessions: SessionService,
  ) {}

  @Get('status/config')
  async config(): Promise<StatusConfigResponse> {
    return { success: true, config: await this.status.config() };
  }

  @Post('status/config')
  @HttpCode(200)
  async save(@Body() body: SaveStatusConfigDto): Promise<MessageResponse> {
    await this.status.save(body);
    return { success: true, message: MESSAGES['status.saved'] };
  }

  @Public()
  @Get('status/data')
  @Header('Cache-Control', 'no-cache')
  async data(): Promise<StatusDataResponse> {
    return { success: true, data: await this.status.data() };
  }

  @Public()
  @Get('status/badge/:file')
  async badge(@Param('file') file: string, @Res() res: Response): Promise<void> {
    const id = /^([1-9]\d{0,9})\.svg$/.exec(file)?.[1];
    if (!id) throw notFound('status.badgeNotFound');
    const monitor = await this.status.badge(Number(id));
    res
      .status(200)
      .type('image/svg+xml')
      .set('Cache-Control', 'max-age=60, must-revalidate')
      .send(badgeSvg(monitor.name, monitor.status as never, monitor.uptime));
  }

  @Get('dashboard')
  async dashboard(): Promise<DashboardResponse> {
    return { success: true, dashboard: await this.status.dashboard() };
  }

  /** A wall screen: a display key (`X-Display-Key` header or `key` query) or a signed-in user. */
  @Public()
  @Get('wall/data')
  @Header('Cache-Control', 'no-store')
  async wall(@Req() req: Request, @Query('key') key?: string): Promise<WallDataResponse> {
    const header = req.headers['x-display-key'];
    const displayKey = typeof header === 'string' ? header : key;
    if (displayKey !== undefined) {
      if ((await this.displayKeys.verify(displayKey)) === null) throw unauthorized('wall.keyInvalid');
    } else {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !(await this.sessions.resolve(bearer))) throw unauthorized('auth.required');
    }
    return { success: true, data: await this.status.wall() };
  }

  @Roles('admin')
  @Get('wall/keys')
  async keys(): Promise<DisplayKeysResponse> {
    return { success: true, keys: await this.displayKeys.list() };
  }

  @Roles('admin')
  @Post('wall/keys')
  async createKey(@Body() body: CreateDisplayKeyDto, @Auth() user: AuthUser): Promise<DisplayKeyCreatedResponse> {
    return { success: true, message: MESSAGES['wall.keyCreated'], ...(await this.displayKeys.create(body.name, user.id)) };
  }

  @Roles('admin')
  @Delete('wall/keys/:id')
  async revokeKey(@Param('id', ParseIdPipe) id: number): Promise<MessageResponse> {
    if (!(await this.displayKeys.revoke(id))) throw notFound('wall.keyNotFound');
    return { success: true, message: MESSAGES['wall.keyDeleted'] };
  }
}

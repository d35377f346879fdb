import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type {
  DashboardResponse,
  DisplayKeyCreatedResponse,
  DisplayKeysResponse,
  StatusConfigResponse,
  StatusDataResponse,
  WallDataResponse,
} from '@vigil/proto';
import { notFound } from '../common/api-exception';
import { Auth, AuthUser, DisplayKeyAllowed, Public, Roles } from '../common/decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { DisplayKeysService } from '../display-keys/display-keys.service';
import { badgeSvg } from './badge';
import { CreateDisplayKeyDto, SaveStatusConfigDto } from './status.dto';
import { StatusService } from './status.service';
import { BodyLimit } from '../common/body-parsing';

@ApiTags('status')
@ApiBearerAuth()
@Controller()
export class StatusController {
  constructor(
    private readonly status: StatusService,
    private readonly displayKeys: DisplayKeysService,
  ) {}

  @Get('status/config')
  @Reply()
  async config(): Promise<Payload<StatusConfigResponse>> {
    return { config: await this.status.config() };
  }

  @BodyLimit('selection')
  @Post('status/config')
  @HttpCode(200)
  @Reply('status.saved')
  save(@Body() body: SaveStatusConfigDto): Promise<void> {
    return this.status.save(body);
  }

  @Public()
  @Get('status/data')
  @Header('Cache-Control', 'no-cache')
  @Reply()
  async data(): Promise<Payload<StatusDataResponse>> {
    return { data: await this.status.data() };
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
  @Reply()
  async dashboard(): Promise<Payload<DashboardResponse>> {
    return { dashboard: await this.status.dashboard() };
  }

  /** A wall screen: a display key (`X-Display-Key` header or `key` query) or any signed-in caller. */
  @DisplayKeyAllowed()
  @Get('wall/data')
  @Header('Cache-Control', 'no-store')
  @Reply()
  async wall(): Promise<Payload<WallDataResponse>> {
    return { data: await this.status.wall() };
  }

  @Roles('admin')
  @Get('wall/keys')
  @Reply()
  async keys(): Promise<Payload<DisplayKeysResponse>> {
    return { keys: await this.displayKeys.list() };
  }

  @Roles('admin')
  @Post('wall/keys')
  @Reply('wall.keyCreated')
  createKey(@Body() body: CreateDisplayKeyDto, @Auth() user: AuthUser): Promise<Payload<DisplayKeyCreatedResponse>> {
    return this.displayKeys.create(body.name, user.id);
  }

  @Roles('admin')
  @Delete('wall/keys/:id')
  @Reply('wall.keyDeleted')
  async revokeKey(@Param('id', ParseIdPipe) id: number): Promise<void> {
    if (!(await this.displayKeys.revoke(id))) throw notFound('wall.keyNotFound');
  }
}

import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { PAGE_SIZE_DEFAULT, type ChannelTestResponse, type NotificationHistoryResponse, type NotificationsResponse } from '@vigil/proto';
import type { Response } from 'express';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { ChannelDto, ChannelTestDto, HistoryQuery, isFilledChannel, SettingsDto } from './notifications.dto';
import { NotificationsService } from './notifications.service';
import { BodyLimit } from '../common/body-parsing';

/** Every signed-in user may configure notifications (spec section 6). */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @Reply()
  async read(): Promise<Payload<NotificationsResponse>> {
    return { data: await this.notifications.read() };
  }

  @BodyLimit('medium')
  @Post('channels')
  @Reply('notifications.channelSaved')
  async createChannel(@Body() body: ChannelDto): Promise<{ data: { id: number } }> {
    return { data: { id: await this.notifications.createChannel(body) } };
  }

  /** A test of a channel not saved yet. */
  @BodyLimit('medium')
  @Post('channels/test')
  @HttpCode(HttpStatus.OK)
  testUnsaved(@Body() body: ChannelDto, @Res({ passthrough: true }) res: Response): Promise<ChannelTestResponse> {
    return this.answerTest(this.notifications.test(null, body), res);
  }

  @BodyLimit('medium')
  @Put('channels/:id')
  @Reply('notifications.channelSaved')
  updateChannel(@Param('id', ParseIdPipe) id: number, @Body() body: ChannelDto): Promise<void> {
    return this.notifications.updateChannel(id, body);
  }

  @Delete('channels/:id')
  @Reply('notifications.channelDeleted')
  deleteChannel(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.notifications.deleteChannel(id);
  }

  /** Sends a test message, with the dialog's unsaved values when the body has them; a provider's refusal is a 502 carrying its answer. */
  @BodyLimit('medium')
  @Post('channels/:id/test')
  @HttpCode(HttpStatus.OK)
  test(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: ChannelTestDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ChannelTestResponse> {
    return this.answerTest(this.notifications.test(id, isFilledChannel(body) ? body : null), res);
  }

  @BodyLimit('medium')
  @Post('settings')
  @HttpCode(HttpStatus.OK)
  @Reply('notifications.settingsSaved')
  saveSettings(@Body() body: SettingsDto): Promise<void> {
    return this.notifications.saveSettings(body);
  }

  @Get('history')
  @Reply()
  async history(@Query() query: HistoryQuery): Promise<Payload<NotificationHistoryResponse>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
    const { items, total } = await this.notifications.history({
      status: query.status,
      targetKind: query.target_kind,
      targetId: query.target_id,
      channelId: query.channel_id,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { items, total, page, pageSize };
  }

  private async answerTest(result: ReturnType<NotificationsService['test']>, res: Response): Promise<ChannelTestResponse> {
    const { ok, response } = await result;
    if (!ok) res.status(HttpStatus.BAD_GATEWAY);
    return response;
  }
}

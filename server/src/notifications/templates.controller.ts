import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { TemplatePreviewResponse, TemplatesResponse } from '@vigil/proto';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { ChannelTemplatesDto, TemplateDto, TemplatePreviewDto } from './templates.dto';
import { TemplatesService } from './templates.service';
import { BodyLimit } from '../common/body-parsing';

/** Custom notification templates; like channels, every signed-in user may configure them (spec section 6). */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get('templates')
  @Reply()
  async list(): Promise<Payload<TemplatesResponse>> {
    return { data: { templates: await this.templates.list() } };
  }

  @BodyLimit('medium')
  @Post('templates')
  @Reply('notifications.templateSaved')
  async create(@Body() body: TemplateDto): Promise<{ data: { id: number } }> {
    return { data: { id: await this.templates.create(body) } };
  }

  /** Renders texts, saved or not, with sample values. */
  @BodyLimit('medium')
  @Post('templates/preview')
  @HttpCode(HttpStatus.OK)
  @Reply()
  preview(@Body() body: TemplatePreviewDto): Payload<TemplatePreviewResponse> {
    return { data: this.templates.preview(body) };
  }

  @BodyLimit('medium')
  @Put('templates/:id')
  @Reply('notifications.templateSaved')
  update(@Param('id', ParseIdPipe) id: number, @Body() body: TemplateDto): Promise<void> {
    return this.templates.update(id, body);
  }

  @Delete('templates/:id')
  @Reply('notifications.templateDeleted')
  remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.templates.remove(id);
  }

  /** The custom template each event uses on the channel; replaces the channel's whole choice. */
  @BodyLimit('medium')
  @Put('channels/:id/templates')
  @Reply('notifications.channelTemplatesSaved')
  setChannelTemplates(@Param('id', ParseIdPipe) id: number, @Body() body: ChannelTemplatesDto): Promise<void> {
    return this.templates.setChannelTemplates(id, body.templates);
  }
}

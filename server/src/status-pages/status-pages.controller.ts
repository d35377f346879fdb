import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { StatusPageResponse, StatusPagesResponse } from '@vigil/proto';
import { BodyLimit } from '../common/body-parsing';
import { Payload, Reply } from '../common/reply';
import { SaveStatusPageDto } from './status-pages.dto';
import { StatusPagesService } from './status-pages.service';

/**
 * Status pages as operators configure them: anyone signed in reads them, members change them (a viewer or a read key
 * is refused by the guard), as the spec's status configuration. Bodies may carry every monitor and agent.
 */
@ApiTags('status-pages')
@ApiBearerAuth()
@Controller('status-pages')
export class StatusPagesController {
  constructor(private readonly pages: StatusPagesService) {}

  @Get()
  @Reply()
  async list(): Promise<Payload<StatusPagesResponse>> {
    return { pages: await this.pages.list() };
  }

  @BodyLimit('page')
  @Post()
  @Reply('statusPages.created')
  async create(@Body() body: SaveStatusPageDto): Promise<Payload<StatusPageResponse>> {
    return { page: await this.pages.create(body) };
  }

  @Get(':slug')
  @Reply()
  async get(@Param('slug') slug: string): Promise<Payload<StatusPageResponse>> {
    return { page: await this.pages.get(slug) };
  }

  @BodyLimit('page')
  @Put(':slug')
  @Reply('statusPages.saved')
  async save(@Param('slug') slug: string, @Body() body: SaveStatusPageDto): Promise<Payload<StatusPageResponse>> {
    return { page: await this.pages.save(slug, body) };
  }

  @Delete(':slug')
  @HttpCode(200)
  @Reply('statusPages.deleted')
  remove(@Param('slug') slug: string): Promise<void> {
    return this.pages.remove(slug);
  }
}

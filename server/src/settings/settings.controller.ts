import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { SettingsResponse } from '@vigil/proto';
import { Roles } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { UpdateSettingsDto } from './settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('settings')
@ApiBearerAuth()
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Roles('admin')
  @Get()
  @Reply()
  async read(): Promise<Payload<SettingsResponse>> {
    return { settings: await this.settings.read() };
  }

  @Roles('admin')
  @Put()
  @Reply('settings.saved')
  async update(@Body() body: UpdateSettingsDto): Promise<Payload<SettingsResponse>> {
    return { settings: await this.settings.update(body) };
  }
}

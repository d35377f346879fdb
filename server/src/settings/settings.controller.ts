import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { MESSAGES, SettingsResponse } from '@vigil/proto';
import { Roles } from '../common/decorators';
import { UpdateSettingsDto } from './settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('settings')
@ApiBearerAuth()
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Roles('admin')
  @Get()
  async read(): Promise<SettingsResponse> {
    return { success: true, settings: await this.settings.read() };
  }

  @Roles('admin')
  @Put()
  async update(@Body() body: UpdateSettingsDto): Promise<SettingsResponse & { message: string }> {
    return { success: true, message: MESSAGES['settings.saved'], settings: await this.settings.update(body) };
  }
}

import { Controller, Get, Header, Param, Res, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { notFound } from '../../../common/api-exception';
import { ParseRouteIdPipe } from '../../../common/parse-id.pipe';
import { BrowserScreenshots } from './browser-screenshots';

/**
 * A browser monitor's last failure screenshot, for every signed-in user (monitors are shared; the global guard requires a
 * token). The type comes with the file, so a 404 stays JSON.
 */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('monitors')
export class BrowserScreenshotController {
  constructor(private readonly screenshots: BrowserScreenshots) {}

  @Get(':id/screenshot')
  @Header('Cache-Control', 'private, no-cache')
  @Header('X-Content-Type-Options', 'nosniff')
  async screenshot(@Param('id', ParseRouteIdPipe) id: number, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
    const shot = await this.screenshots.last(id);
    if (!shot) throw notFound('monitors.screenshotNotFound');
    // When the failure was seen: the detail page shows it beside the picture.
    res.setHeader('Last-Modified', shot.takenAt.toUTCString());
    return new StreamableFile(shot.png, { type: 'image/png', length: shot.png.length });
  }
}

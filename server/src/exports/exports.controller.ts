import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseRouteIdPipe } from '../common/parse-id.pipe';
import { envelope } from '../common/reply';
import { AvailabilityQuery, CheckExportQuery, MetricExportQuery } from './exports.dto';
import { ExportsService } from './exports.service';

/**
 * Downloads of stored data. Read by whoever may read the monitor or agent (every signed-in user, a read key too), as
 * the detail pages are; the answers are files (CSV or JSON), not the envelope.
 */
@ApiTags('exports')
@ApiBearerAuth()
@Controller()
export class ExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Get('monitors/:id/checks/export')
  @ApiProduces('text/csv', 'application/json')
  checks(@Param('id', ParseRouteIdPipe) id: number, @Query() query: CheckExportQuery, @Res() res: Response): Promise<void> {
    return this.exports.monitorChecks(id, query, res);
  }

  @Get('agents/:id/metrics/export')
  @ApiProduces('text/csv', 'application/json')
  metrics(@Param('id', ParseRouteIdPipe) id: number, @Query() query: MetricExportQuery, @Res() res: Response): Promise<void> {
    return this.exports.agentMetrics(id, query, res);
  }

  /** The whole month streamed as a file, or with `limit` one page as the envelope (the report screen's reads). */
  @Get('reports/availability')
  @ApiProduces('text/csv', 'application/json')
  async availability(@Query() query: AvailabilityQuery, @Res() res: Response): Promise<void> {
    const page = await this.exports.availability(query, res);
    if (page) res.json(envelope(page));
  }
}

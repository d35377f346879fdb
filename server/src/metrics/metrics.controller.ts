import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { KeyScope, Roles } from '../common/decorators';
import { MetricsService } from './metrics.service';

/**
 * Prometheus text format, for operators' scrapers and the benchmarks. Admins only: it describes the install. A scraper
 * uses an admin's `metrics` API key, which opens nothing else.
 */
@ApiTags('metrics')
@ApiBearerAuth()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Roles('admin')
  @KeyScope('metrics')
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4')
  render(): Promise<string> {
    return this.metrics.render();
  }
}

import { Module } from '@nestjs/common';
import { MonitorsModule } from '../monitors/monitors.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

@Module({ imports: [MonitorsModule], controllers: [MetricsController], providers: [MetricsService] })
export class MetricsModule {}

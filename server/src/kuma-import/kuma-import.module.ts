import { Module } from '@nestjs/common';
import { ConfigAsCodeModule } from '../config-as-code/config-as-code.module';
import { KumaImportController } from './kuma-import.controller';
import { KumaImportRepository } from './kuma-import.repository';
import { KumaImportService } from './kuma-import.service';
import { KumaJobs } from './kuma-jobs';

/** `POST /api/import/uptime-kuma`: a Kuma file applied as a configuration document (ApplyService) with its history. */
@Module({
  imports: [ConfigAsCodeModule],
  controllers: [KumaImportController],
  providers: [KumaImportService, KumaImportRepository, KumaJobs],
})
export class KumaImportModule {}

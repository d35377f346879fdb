import { Controller, Get, HttpStatus, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { KUMA_JOB_ID_PATTERN, type KumaImportProgress, type KumaImportResponse } from '@vigil/proto';
import type { Request } from 'express';
import { ApiException } from '../common/api-exception';
import { BodyLimit } from '../common/body-parsing';
import { Roles } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { KumaImportQuery } from './kuma-import.dto';
import { KumaImportService } from './kuma-import.service';
import { KumaJobs } from './kuma-jobs';
import { readKumaUpload } from './kuma-upload';

/** Import from Uptime Kuma (admins: the file carries every secret of the Kuma install). */
@ApiTags('import')
@ApiBearerAuth()
@Roles('admin')
@Controller('import/uptime-kuma')
export class KumaImportController {
  constructor(
    private readonly imports: KumaImportService,
    private readonly jobs: KumaJobs,
  ) {}

  @Post()
  @BodyLimit('page')
  @ApiConsumes('application/octet-stream', 'multipart/form-data')
  @ApiBody({ description: 'kuma.db (SQLite) or a Kuma 1.x JSON backup, at most 50 MB', schema: { type: 'string', format: 'binary' } })
  @Reply()
  async upload(@Query() query: KumaImportQuery, @Req() req: Request): Promise<Payload<KumaImportResponse>> {
    const bytes = await readKumaUpload(req);
    const report = await this.imports.run(bytes, { dryRun: query.dryRun ?? false, history: query.history ?? 'none', jobId: query.jobId });
    return { report };
  }

  @Get('jobs/:jobId')
  @Reply()
  progress(@Param('jobId') jobId: string): Payload<KumaImportProgress> {
    const job = KUMA_JOB_ID_PATTERN.test(jobId) ? this.jobs.get(jobId) : undefined;
    if (!job) throw new ApiException(HttpStatus.NOT_FOUND, 'kumaImport.jobNotFound');
    return job;
  }
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { KUMA_HISTORY_OPTIONS, KUMA_JOB_ID_PATTERN, type KumaHistoryOption } from '@vigil/proto';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, Matches } from 'class-validator';

const flag = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** `POST /api/import/uptime-kuma?dryRun=&history=&jobId=`. */
export class KumaImportQuery {
  @ApiPropertyOptional({ description: 'Answer what would be created, changed and skipped; nothing is written' })
  @IsOptional()
  @Transform(flag)
  @IsBoolean({ message: 'validation.booleanRequired' })
  dryRun?: boolean;

  @ApiPropertyOptional({
    enum: KUMA_HISTORY_OPTIONS,
    default: 'none',
    description: 'Heartbeat history for new monitors: none, raw heartbeats, or daily stats',
  })
  @IsOptional()
  @IsIn(KUMA_HISTORY_OPTIONS, { message: 'kumaImport.historyInvalid' })
  history?: KumaHistoryOption;

  @ApiPropertyOptional({ description: 'An id the caller picks to read progress at /api/import/uptime-kuma/jobs/{jobId}' })
  @IsOptional()
  @Matches(KUMA_JOB_ID_PATTERN, { message: 'kumaImport.jobIdInvalid' })
  jobId?: string;
}

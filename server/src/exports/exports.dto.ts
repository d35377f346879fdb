import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';
import {
  CHECK_EXPORT_TIERS,
  EXPORT_FORMATS,
  EXPORT_LIMITS,
  METRIC_EXPORT_TIERS,
  REPORT_MONTH,
  type CheckExportTier,
  type ExportFormat,
  type MetricExportTier,
} from '@vigil/proto';
import { ID_MAX, QueryInteger } from '../common/query-integer';

/** The range and format every export takes. */
class ExportQuery {
  @ApiPropertyOptional({ format: 'date-time', description: 'Default: a day before `to`' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'exports.rangeInvalid' })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: `Default: now; after \`from\`, at most ${EXPORT_LIMITS.rangeDaysMax} days later`,
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'exports.rangeInvalid' })
  to?: string;

  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: 'exports.formatInvalid' })
  format?: ExportFormat;
}

/** `GET /api/monitors/{id}/checks/export`. */
export class CheckExportQuery extends ExportQuery {
  @ApiPropertyOptional({ enum: CHECK_EXPORT_TIERS, default: 'auto' })
  @IsOptional()
  @IsIn(CHECK_EXPORT_TIERS, { message: 'exports.tierInvalid' })
  tier?: CheckExportTier;
}

/** `GET /api/agents/{id}/metrics/export`. */
export class MetricExportQuery extends ExportQuery {
  @ApiPropertyOptional({ enum: METRIC_EXPORT_TIERS, default: 'auto', description: 'Seconds per point' })
  @IsOptional()
  @IsIn(METRIC_EXPORT_TIERS, { message: 'exports.tierInvalid' })
  tier?: MetricExportTier;
}

/** `GET /api/reports/availability`: the whole month streamed, or with `limit` one page of it as JSON. */
export class AvailabilityQuery {
  @ApiPropertyOptional({
    pattern: REPORT_MONTH.source,
    example: '2026-01',
    description: 'A UTC month, not in the future; default: this one',
  })
  @IsOptional()
  @IsString({ message: 'reports.monthInvalid' })
  @Matches(REPORT_MONTH, { message: 'reports.monthInvalid' })
  month?: string;

  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: 'exports.formatInvalid' })
  format?: ExportFormat;

  @QueryInteger({ min: 0, max: ID_MAX, message: 'reports.afterInvalid', description: 'Paged read: the monitors after this id' })
  after?: number;

  @QueryInteger({ min: 1, max: EXPORT_LIMITS.reportPageMax, message: 'reports.limitInvalid', description: 'Paged read: one JSON page' })
  limit?: number;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ALERT_NOTE_MAX, ALERT_STATES, type AlertAckRequest, type AlertStateName, type MuteRequest } from '@vigil/proto';
import { PageQuery } from '../common/paging';
import { ID_MAX, QueryInteger } from '../common/query-integer';

const STATE_FILTERS = ['all', ...ALERT_STATES] as const;
const KINDS = ['monitor', 'agent'] as const;

/** `GET /api/alerts`: open first, then recent; filters by state, target kind and id, and a part of the target's name. */
export class AlertsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: STATE_FILTERS, default: 'all' })
  @IsOptional()
  @IsIn(STATE_FILTERS, { message: 'alerts.stateInvalid' })
  state?: AlertStateName | 'all';

  @ApiPropertyOptional({ enum: KINDS })
  @IsOptional()
  @IsIn(KINDS, { message: 'alerts.kindInvalid' })
  kind?: 'monitor' | 'agent';

  @QueryInteger({ min: 1, max: ID_MAX, message: 'request.invalidId' })
  targetId?: number;

  @ApiPropertyOptional({ description: "Part of the monitor's or agent's name" })
  @IsOptional()
  @IsString({ message: 'alerts.searchInvalid' })
  @MaxLength(100, { message: 'alerts.searchInvalid' })
  search?: string;
}

export class AlertAckDto implements AlertAckRequest {
  @ApiPropertyOptional({ maxLength: ALERT_NOTE_MAX, nullable: true })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : (value ?? undefined)))
  @IsOptional()
  @IsString({ message: 'alerts.noteInvalid' })
  @MaxLength(ALERT_NOTE_MAX, { message: 'alerts.noteInvalid' })
  note?: string;
}

export class MuteDto implements MuteRequest {
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'Future time within a year; null unmutes' })
  @Transform(({ value }: { value: unknown }) => (value === undefined ? undefined : value))
  @ValidateIf((body: MuteDto) => body.until !== null)
  @IsISO8601({ strict: true }, { message: 'alerts.muteInvalid' })
  until: string | null;
}

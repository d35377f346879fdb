import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditAction, type AuditTargetType } from '@vigil/proto';
import { PageQuery } from '../common/paging';
import { ID_MAX, QueryInteger } from '../common/query-integer';

/** `GET /api/audit`'s filters; each refused alone with its own message (400). */
export class AuditQuery extends PageQuery {
  @QueryInteger({ min: 1, max: ID_MAX, message: 'audit.actorInvalid', description: 'The id of the user who acted' })
  actor?: number;

  @ApiPropertyOptional({ enum: AUDIT_TARGET_TYPES })
  @IsOptional()
  @IsIn(AUDIT_TARGET_TYPES, { message: 'audit.targetTypeInvalid' })
  target_type?: AuditTargetType;

  @ApiPropertyOptional({ maxLength: 64, description: 'The target id, as the entries show it' })
  @IsOptional()
  @IsString({ message: 'audit.targetIdInvalid' })
  @MinLength(1, { message: 'audit.targetIdInvalid' })
  @MaxLength(64, { message: 'audit.targetIdInvalid' })
  target_id?: string;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: 'audit.actionInvalid' })
  action?: AuditAction;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'audit.timeInvalid' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or before this time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'audit.timeInvalid' })
  to?: string;
}

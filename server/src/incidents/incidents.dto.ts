import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  INCIDENT_IMPACTS,
  INCIDENT_LIMITS as L,
  INCIDENT_STATUSES,
  PAGE_SLUG_PATTERN,
  type AddIncidentUpdateRequest,
  type CreateIncidentRequest,
  type IncidentImpact,
  type IncidentStatus,
  type MessageCode,
  type SaveIncidentRequest,
} from '@vigil/proto';
import { PageQuery } from '../common/paging';
import { ID_MAX } from '../common/query-integer';
import { trim } from '../users/user-fields';

export const INCIDENT_STATES = ['active', 'resolved', 'draft', 'all'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/** Ids of integer columns, checked in one pass (a per-item rule costs far more on 10,000 items). */
@ValidatorConstraint({ name: 'idList' })
class IdListRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      Array.isArray(value) &&
      value.length <= L.idsMax &&
      value.every((id) => typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= ID_MAX)
    );
  }
}

/** A list of monitor or agent ids; duplicates are dropped by the service. */
function IdList(message: MessageCode, description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [Number], maxItems: L.idsMax, description }),
    IsOptional(),
    IsArray({ message }),
    Validate(IdListRule, { message }),
  );
}

function PageList(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: L.pagesMax, description: 'Status page slugs (`default` is /status)' }),
    IsOptional(),
    IsArray({ message: 'incidents.pagesInvalid' }),
    ArrayMaxSize(L.pagesMax, { message: 'incidents.pagesInvalid' }),
    IsString({ each: true, message: 'incidents.pagesInvalid' }),
    Matches(PAGE_SLUG_PATTERN, { each: true, message: 'incidents.pagesInvalid' }),
  );
}

function Title(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ maxLength: L.titleMax }),
    Transform(trim),
    IsString({ message: 'incidents.titleInvalid' }),
    IsNotEmpty({ message: 'incidents.titleInvalid' }),
    MaxLength(L.titleMax, { message: 'incidents.titleInvalid' }),
  );
}

function Impact(): PropertyDecorator {
  return applyDecorators(ApiProperty({ enum: INCIDENT_IMPACTS }), IsIn(INCIDENT_IMPACTS, { message: 'incidents.impactInvalid' }));
}

function Message(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ maxLength: L.messageMax, description: 'Markdown: raw HTML is shown as text, links are http(s) or mailto' }),
    IsString({ message: 'incidents.messageInvalid' }),
    // Blank text says nothing; the stored message keeps what was written.
    Matches(/\S/, { message: 'incidents.messageInvalid' }),
    MaxLength(L.messageMax, { message: 'incidents.messageInvalid' }),
  );
}

function Published(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description: 'False: a draft, seen by operators only' }),
    IsOptional(),
    IsBoolean({ message: 'incidents.publishedInvalid' }),
  );
}

export class CreateIncidentDto implements CreateIncidentRequest {
  @Title()
  title: string;

  @Impact()
  impact: IncidentImpact;

  @ApiPropertyOptional({ enum: INCIDENT_STATUSES, default: 'investigating' })
  @IsOptional()
  @IsIn(INCIDENT_STATUSES, { message: 'incidents.statusInvalid' })
  status?: IncidentStatus;

  @Message()
  message: string;

  @IdList('incidents.monitorsInvalid', 'Affected monitor ids')
  monitors?: number[];

  @IdList('incidents.agentsInvalid', 'Affected agent ids')
  agents?: number[];

  @PageList()
  pages?: string[];

  @Published()
  published?: boolean;
}

/** The incident's own fields; a list left out keeps what is stored. */
export class SaveIncidentDto implements SaveIncidentRequest {
  @Title()
  title: string;

  @Impact()
  impact: IncidentImpact;

  @IdList('incidents.monitorsInvalid', 'Affected monitor ids; absent keeps them')
  monitors?: number[];

  @IdList('incidents.agentsInvalid', 'Affected agent ids; absent keeps them')
  agents?: number[];

  @PageList()
  pages?: string[];

  @Published()
  published?: boolean;
}

export class AddIncidentUpdateDto implements AddIncidentUpdateRequest {
  @ApiProperty({ enum: INCIDENT_STATUSES })
  @IsIn(INCIDENT_STATUSES, { message: 'incidents.statusInvalid' })
  status: IncidentStatus;

  @Message()
  message: string;
}

/** `GET /api/incidents`: newest first; `active` and `resolved` are published incidents, `draft` the unpublished ones. */
export class IncidentsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: INCIDENT_STATES, default: 'all' })
  @IsOptional()
  @IsIn(INCIDENT_STATES, { message: 'incidents.stateInvalid' })
  state?: IncidentState;

  @ApiPropertyOptional({ description: 'Part of the title', maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'incidents.searchInvalid' })
  @MaxLength(100, { message: 'incidents.searchInvalid' })
  search?: string;
}

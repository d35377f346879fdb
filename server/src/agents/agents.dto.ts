import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  AGENT_DEVICE_KINDS,
  AGENT_LIST_STATUSES,
  AGENT_METRICS_RANGES,
  AGENT_NAME_MAX,
  AgentDeviceKind,
  AgentListStatus,
  AgentMetricsRange,
  AgentUpdateRequest,
  DependencyRef,
} from '@vigil/proto';
import { trim } from '../users/user-fields';
import { DependencyList } from '../monitors/dependencies/dependency-list.dto';
import { PageQuery } from '../common/paging';

export class UpdateAgentDto implements AgentUpdateRequest {
  @ApiProperty({ maxLength: AGENT_NAME_MAX })
  @Transform(trim)
  @IsString({ message: 'agents.nameRequired' })
  @IsNotEmpty({ message: 'agents.nameRequired' })
  @MaxLength(AGENT_NAME_MAX, { message: 'agents.nameTooLong' })
  name!: string;

  @DependencyList('Monitors and agents this agent depends on; replaces the stored list')
  dependsOn?: DependencyRef[];

  @DependencyList('The same as dependsOn; dependsOn wins')
  depends_on?: DependencyRef[];
}

export class ListAgentsQuery extends PageQuery {
  @ApiPropertyOptional({
    enum: AGENT_LIST_STATUSES,
    description: '`inactive`: offline; `unreachable`: the offline agents behind a down dependency; `maintenance`: those a window covers',
  })
  @IsOptional()
  @IsIn(AGENT_LIST_STATUSES, { message: 'validation.failed' })
  status?: AgentListStatus;

  @ApiPropertyOptional({ description: 'Part of a name, hostname or IP address' })
  @IsOptional()
  @IsString({ message: 'validation.failed' })
  @MaxLength(200, { message: 'validation.failed' })
  search?: string;
}

export class AgentDevicesQuery {
  @ApiPropertyOptional({ enum: AGENT_METRICS_RANGES, default: '1h' })
  @IsOptional()
  @IsIn(AGENT_METRICS_RANGES, { message: 'agents.rangeInvalid' })
  range?: AgentMetricsRange;

  @ApiProperty({ enum: AGENT_DEVICE_KINDS })
  @IsIn(AGENT_DEVICE_KINDS, { message: 'agents.deviceKindInvalid' })
  kind!: AgentDeviceKind;
}

export class AgentMetricsQuery {
  @ApiPropertyOptional({ enum: AGENT_METRICS_RANGES, default: '1h' })
  @IsOptional()
  @IsIn(AGENT_METRICS_RANGES, { message: 'agents.rangeInvalid' })
  range?: AgentMetricsRange;
}

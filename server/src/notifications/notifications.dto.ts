import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { DELIVERY_STATUSES, type DeliveryStatus, type NotificationTargetKind } from '@vigil/proto';
import { PageQuery } from '../common/paging';

const TARGET_KINDS: readonly NotificationTargetKind[] = ['monitor', 'agent', 'test'];

export class HistoryQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: 'validation.failed' })
  status?: DeliveryStatus;

  @ApiPropertyOptional({ enum: TARGET_KINDS })
  @IsOptional()
  @IsIn(TARGET_KINDS, { message: 'validation.failed' })
  target_kind?: NotificationTargetKind;

  @ApiPropertyOptional({ description: 'Monitor or agent id (with target_kind)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'request.invalidId' })
  @Min(1, { message: 'request.invalidId' })
  target_id?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'request.invalidId' })
  @Min(1, { message: 'request.invalidId' })
  channel_id?: number;
}

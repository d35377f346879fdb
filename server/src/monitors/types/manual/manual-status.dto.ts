import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { MANUAL_STATUSES, MONITOR_TYPE_LIMITS as L, type ManualStatus, type SetMonitorStatusRequest } from '@vigil/proto';

/** `POST /api/monitors/{id}/status`: a manual monitor's status and why. */
export class SetMonitorStatusDto implements SetMonitorStatusRequest {
  @ApiProperty({ enum: MANUAL_STATUSES })
  @IsIn(MANUAL_STATUSES, { message: 'monitors.manualStatusInvalid' })
  status!: ManualStatus;

  @ApiPropertyOptional({ nullable: true, maxLength: L.messageMax, description: 'Shown in the history and the notifications' })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString({ message: 'monitors.messageTooLong' })
  @MaxLength(L.messageMax, { message: 'monitors.messageTooLong' })
  message?: string | null;
}

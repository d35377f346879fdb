import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Longest `msg` kept from a push. */
export const PUSH_MESSAGE_MAX = 1024;
export const PUSH_PING_MAX_MS = 3_600_000;

/** Uptime Kuma's push query (`?status=up&msg=OK&ping=`): empty values mean "not given", as Kuma's own URLs send them. */
const blankAsAbsent = ({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export class PushQuery {
  @ApiPropertyOptional({ enum: ['up', 'down'], default: 'up' })
  @Transform(({ value }: { value: unknown }) => {
    const given = blankAsAbsent({ value });
    return typeof given === 'string' ? given.trim().toLowerCase() : given;
  })
  @IsOptional()
  @IsIn(['up', 'down'], { message: 'push.statusInvalid' })
  status?: 'up' | 'down';

  @ApiPropertyOptional({ maxLength: PUSH_MESSAGE_MAX, description: 'Shown in the history when down; the body assertions read it' })
  @IsOptional()
  @IsString({ message: 'push.messageTooLong' })
  @MaxLength(PUSH_MESSAGE_MAX, { message: 'push.messageTooLong' })
  msg?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: PUSH_PING_MAX_MS, description: 'Milliseconds, recorded as the response time' })
  @Transform(({ value }: { value: unknown }) => {
    const given = blankAsAbsent({ value });
    return typeof given === 'string' && !Number.isNaN(Number(given)) ? Number(given) : given;
  })
  @IsOptional()
  @IsNumber({}, { message: 'push.pingInvalid' })
  @Min(0, { message: 'push.pingInvalid' })
  @Max(PUSH_PING_MAX_MS, { message: 'push.pingInvalid' })
  ping?: number;
}

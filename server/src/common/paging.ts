import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PAGE_SIZE_MAX } from '@vigil/proto';

/** `page` and `pageSize` of every paged list; list queries extend it with their own filters. */
export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'validation.failed' })
  @Min(1, { message: 'validation.failed' })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_SIZE_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'validation.failed' })
  @Min(1, { message: 'validation.failed' })
  @Max(PAGE_SIZE_MAX, { message: 'validation.failed' })
  pageSize?: number;
}

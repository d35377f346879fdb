import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

const flag = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** `GET /api/export?secrets=`. */
export class ExportQuery {
  @ApiPropertyOptional({ description: 'Channel and monitor secrets as they are, instead of ${ENV_NAME} placeholders' })
  @IsOptional()
  @Transform(flag)
  @IsBoolean({ message: 'validation.booleanRequired' })
  secrets?: boolean;
}

/** `POST /api/apply?dryRun=&prune=`. */
export class ApplyQuery {
  @ApiPropertyOptional({ description: 'Answer the plan only; nothing is written' })
  @IsOptional()
  @Transform(flag)
  @IsBoolean({ message: 'validation.booleanRequired' })
  dryRun?: boolean;

  @ApiPropertyOptional({ description: 'Delete what the sections the document lists no longer name' })
  @IsOptional()
  @Transform(flag)
  @IsBoolean({ message: 'validation.booleanRequired' })
  prune?: boolean;
}

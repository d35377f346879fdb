import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import type { UpdateSettingsRequest } from '@vigil/proto';

/** The settings to change; those left out stay as they are. */
export class UpdateSettingsDto implements UpdateSettingsRequest {
  @ApiProperty({ description: 'Whether visitors may register accounts themselves', required: false })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  allowRegistration?: boolean;

  @ApiProperty({ description: 'Whether every account must set up two-factor sign-in', required: false })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  requireTwoFactor?: boolean;

  @ApiProperty({ description: 'Whether password sign-in is disabled in favour of single sign-on', required: false })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  passwordLoginDisabled?: boolean;
}

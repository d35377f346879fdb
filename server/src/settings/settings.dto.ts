import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import type { InstanceSettings } from '@vigil/proto';

export class UpdateSettingsDto implements InstanceSettings {
  @ApiProperty({ description: 'Whether visitors may register accounts themselves' })
  @IsBoolean({ message: 'validation.booleanRequired' })
  allowRegistration: boolean;
}

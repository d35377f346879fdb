import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { API_KEY_LIMITS as L, API_KEY_SCOPES, type ApiKeyScope, type CreateApiKeyRequest } from '@vigil/proto';
import { trim } from '../users/user-fields';

export class CreateApiKeyDto implements CreateApiKeyRequest {
  @ApiProperty({ maxLength: L.nameMax })
  @Transform(trim)
  @IsString({ message: 'apiKeys.nameRequired' })
  @IsNotEmpty({ message: 'apiKeys.nameRequired' })
  @MaxLength(L.nameMax, { message: 'apiKeys.nameRequired' })
  name!: string;

  @ApiProperty({ enum: API_KEY_SCOPES })
  @IsIn(API_KEY_SCOPES, { message: 'apiKeys.scopeInvalid' })
  scope!: ApiKeyScope;

  @ApiPropertyOptional({ nullable: true, minimum: 1, maximum: L.expiryDaysMax, description: 'Days until the key expires; absent: never' })
  @IsOptional()
  @IsInt({ message: 'apiKeys.expiryInvalid' })
  @Min(1, { message: 'apiKeys.expiryInvalid' })
  @Max(L.expiryDaysMax, { message: 'apiKeys.expiryInvalid' })
  expiresInDays?: number | null;
}

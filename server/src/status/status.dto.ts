import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { isLogoAddress, STATUS_LIMITS as L, StatusConfigRequest } from '@vigil/proto';
import { trim } from '../users/user-fields';

/** The logo's shape (the origin rule is StatusAssets'): a path here, a data: image or an http(s) address. */
@ValidatorConstraint({ name: 'logoAddress' })
export class LogoAddress implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isLogoAddress(value);
  }
}

/** The spec's client ignores non-positive or NaN ids; so does the server, keeping the rest. */
const positiveIds = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? [...new Set(value.map(Number).filter((id) => Number.isInteger(id) && id > 0 && id < 2 ** 31))] : value;

export class SaveStatusConfigDto implements StatusConfigRequest {
  @ApiProperty({ maxLength: L.titleMax })
  @Transform(trim)
  @IsString({ message: 'status.titleRequired' })
  @IsNotEmpty({ message: 'status.titleRequired' })
  @MaxLength(L.titleMax, { message: 'status.titleTooLong' })
  title!: string;

  @ApiPropertyOptional({ maxLength: L.descriptionMax })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'status.descriptionTooLong' })
  @MaxLength(L.descriptionMax, { message: 'status.descriptionTooLong' })
  description?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @Transform(trim)
  @ValidateIf((_, value) => value !== '' && value !== null)
  @Validate(LogoAddress, { message: 'status.logoUrlInvalid' })
  @MaxLength(L.logoUrlMax, { message: 'status.logoUrlInvalid' })
  logoUrl?: string | null;

  @ApiPropertyOptional({ nullable: true, maxLength: L.customCssMax })
  @IsOptional()
  @IsString({ message: 'status.customCssTooLong' })
  @MaxLength(L.customCssMax, { message: 'status.customCssTooLong' })
  customCss?: string | null;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  showResources?: boolean;

  @ApiProperty({ type: [Number], description: 'Selected monitor ids' })
  @Transform(positiveIds)
  @IsArray({ message: 'status.idsInvalid' })
  monitors!: number[];

  @ApiProperty({ type: [Number], description: 'Selected agent ids' })
  @Transform(positiveIds)
  @IsArray({ message: 'status.idsInvalid' })
  agents!: number[];
}

export class CreateDisplayKeyDto {
  @ApiProperty({ maxLength: L.displayKeyNameMax })
  @Transform(trim)
  @IsString({ message: 'wall.keyNameRequired' })
  @IsNotEmpty({ message: 'wall.keyNameRequired' })
  @MaxLength(L.displayKeyNameMax, { message: 'wall.keyNameRequired' })
  name!: string;
}

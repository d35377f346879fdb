import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  ChangePasswordRequest,
  CreateUserRequest,
  EMAIL_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  Role,
  ROLES,
  UpdateUserRequest,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '@vigil/proto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** An empty optional address means "no address". */
const trimOrNull = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  return value.trim() === '' ? null : value.trim();
};

/** Decorators shared by every DTO field of the same meaning; `required` decides absent vs. present-but-bad. */
function UsernameField(required: boolean): PropertyDecorator {
  return (target, key) => {
    Transform(trim)(target, key);
    if (!required) IsOptional()(target, key);
    IsNotEmpty({ message: 'validation.usernameRequired' })(target, key);
    IsString({ message: 'validation.usernameRequired' })(target, key);
    Length(USERNAME_MIN, USERNAME_MAX, { message: 'validation.usernameFormat' })(target, key);
    Matches(USERNAME_PATTERN, { message: 'validation.usernameFormat' })(target, key);
  };
}

function NewPasswordField(required: boolean): PropertyDecorator {
  return (target, key) => {
    if (!required) IsOptional()(target, key);
    IsNotEmpty({ message: 'validation.passwordRequired' })(target, key);
    IsString({ message: 'validation.passwordRequired' })(target, key);
    Length(PASSWORD_MIN, PASSWORD_MAX, { message: 'validation.passwordLength' })(target, key);
  };
}

function OptionalEmailField(): PropertyDecorator {
  return (target, key) => {
    Transform(trimOrNull)(target, key);
    ValidateIf((_, value) => value !== null && value !== undefined)(target, key);
    IsString({ message: 'validation.emailInvalid' })(target, key);
    MaxLength(EMAIL_MAX, { message: 'validation.emailInvalid' })(target, key);
    IsEmail({}, { message: 'validation.emailInvalid' })(target, key);
  };
}

export class CreateUserDto implements CreateUserRequest {
  @ApiProperty({ minLength: USERNAME_MIN, maxLength: USERNAME_MAX })
  @UsernameField(true)
  username: string;

  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
  @NewPasswordField(true)
  password: string;

  @ApiPropertyOptional({ nullable: true })
  @OptionalEmailField()
  email?: string | null;

  @ApiPropertyOptional({ enum: ROLES, default: 'user' })
  @IsOptional()
  @IsIn(ROLES, { message: 'validation.roleInvalid' })
  role?: Role;
}

export class UpdateUserDto implements UpdateUserRequest {
  @ApiPropertyOptional()
  @UsernameField(false)
  username?: string;

  @ApiPropertyOptional({ nullable: true })
  @OptionalEmailField()
  email?: string | null;

  @ApiPropertyOptional({ enum: ROLES, description: 'Admins only' })
  @IsOptional()
  @IsIn(ROLES, { message: 'validation.roleInvalid' })
  role?: Role;

  @ApiPropertyOptional({ description: 'Admins only: sets a new password for the user' })
  @NewPasswordField(false)
  password?: string;
}

export class ChangePasswordDto implements ChangePasswordRequest {
  @ApiProperty()
  @IsNotEmpty({ message: 'validation.currentPasswordRequired' })
  @IsString({ message: 'validation.currentPasswordRequired' })
  @MaxLength(PASSWORD_MAX, { message: 'validation.passwordLength' })
  currentPassword: string;

  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
  @NewPasswordField(true)
  newPassword: string;
}

export class ListUsersQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'validation.failed' })
  @Min(1, { message: 'validation.failed' })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'validation.failed' })
  @Min(1, { message: 'validation.failed' })
  @Max(500, { message: 'validation.failed' })
  pageSize?: number;

  @ApiPropertyOptional({ description: 'Part of a username or email' })
  @IsOptional()
  @IsString({ message: 'validation.failed' })
  @MaxLength(100, { message: 'validation.failed' })
  search?: string;
}

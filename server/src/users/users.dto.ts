import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  ChangePasswordRequest,
  CreateUserRequest,
  PASSWORD_MAX,
  PASSWORD_MIN,
  Role,
  ROLES,
  UpdateUserRequest,
  USERNAME_MAX,
  USERNAME_MIN,
} from '@vigil/proto';
import { PageQuery } from '../common/paging';
import { NewPasswordField, OptionalEmailField, UsernameField } from './user-fields';

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

export class ListUsersQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Part of a username or email' })
  @IsOptional()
  @IsString({ message: 'validation.failed' })
  @MaxLength(100, { message: 'validation.failed' })
  search?: string;
}

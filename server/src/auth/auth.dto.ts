import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LoginRequest, PASSWORD_MAX, PASSWORD_MIN, RegisterRequest, USERNAME_MAX, USERNAME_MIN } from '@vigil/proto';
import { NewPasswordField, RequiredEmailField, trim, UsernameField } from '../users/user-fields';
import { TWO_FACTOR_CODE_MAX } from './two-factor/two-factor.dto';

export class LoginDto implements LoginRequest {
  @ApiProperty()
  @Transform(trim)
  @IsNotEmpty({ message: 'validation.usernameRequired' })
  @IsString({ message: 'validation.usernameRequired' })
  @MaxLength(100, { message: 'auth.invalidCredentials' })
  username: string;

  @ApiProperty()
  @IsNotEmpty({ message: 'validation.passwordRequired' })
  @IsString({ message: 'validation.passwordRequired' })
  @MaxLength(PASSWORD_MAX, { message: 'auth.invalidCredentials' })
  password: string;

  @ApiProperty({
    required: false,
    description: 'A 6-digit authenticator code or an unused recovery code, when the account has two-factor sign-in',
  })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'auth.twoFactorInvalid' })
  @MaxLength(TWO_FACTOR_CODE_MAX, { message: 'auth.twoFactorInvalid' })
  code?: string;
}

export class RegisterDto implements RegisterRequest {
  @ApiProperty({ minLength: USERNAME_MIN, maxLength: USERNAME_MAX })
  @UsernameField(true)
  username: string;

  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
  @NewPasswordField(true)
  password: string;

  @ApiProperty({ format: 'email' })
  @RequiredEmailField()
  email: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { LoginRequest, PASSWORD_MAX, PASSWORD_MIN, RegisterRequest, USERNAME_MAX, USERNAME_MIN } from '@vigil/proto';
import { NewPasswordField, RequiredEmailField, trim, UsernameField } from '../users/user-fields';

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

import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, Length, Matches, MaxLength } from 'class-validator';
import {
  EMAIL_MAX,
  LoginRequest,
  PASSWORD_MAX,
  PASSWORD_MIN,
  RegisterRequest,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '@vigil/proto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

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
  @Transform(trim)
  @IsNotEmpty({ message: 'validation.usernameRequired' })
  @IsString({ message: 'validation.usernameRequired' })
  @Length(USERNAME_MIN, USERNAME_MAX, { message: 'validation.usernameFormat' })
  @Matches(USERNAME_PATTERN, { message: 'validation.usernameFormat' })
  username: string;

  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
  @IsNotEmpty({ message: 'validation.passwordRequired' })
  @IsString({ message: 'validation.passwordRequired' })
  @Length(PASSWORD_MIN, PASSWORD_MAX, { message: 'validation.passwordLength' })
  password: string;

  @ApiProperty({ format: 'email' })
  @Transform(trim)
  @IsNotEmpty({ message: 'validation.emailRequired' })
  @IsString({ message: 'validation.emailRequired' })
  @MaxLength(EMAIL_MAX, { message: 'validation.emailInvalid' })
  @IsEmail({}, { message: 'validation.emailInvalid' })
  email: string;
}

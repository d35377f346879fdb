import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX, type TwoFactorCodeRequest, type TwoFactorDisableRequest } from '@vigil/proto';
import { trim } from '../../users/user-fields';

/** Longest code read: a recovery code with its dashes is 19 characters; the rest is room for stray spaces. */
export const TWO_FACTOR_CODE_MAX = 64;

/** A 6-digit authenticator code or a recovery code. */
export function TwoFactorCodeField(): PropertyDecorator {
  return (target, key) => {
    Transform(trim)(target, key);
    IsNotEmpty({ message: 'twoFactor.codeRequired' })(target, key);
    IsString({ message: 'twoFactor.codeRequired' })(target, key);
    MaxLength(TWO_FACTOR_CODE_MAX, { message: 'twoFactor.codeInvalid' })(target, key);
  };
}

export class TwoFactorCodeDto implements TwoFactorCodeRequest {
  @ApiProperty({ description: 'A 6-digit code from the authenticator app, or an unused recovery code', maxLength: TWO_FACTOR_CODE_MAX })
  @TwoFactorCodeField()
  code: string;
}

export class TwoFactorDisableDto implements TwoFactorDisableRequest {
  @ApiProperty({ description: "The account's password" })
  @IsNotEmpty({ message: 'validation.currentPasswordRequired' })
  @IsString({ message: 'validation.currentPasswordRequired' })
  @MaxLength(PASSWORD_MAX, { message: 'validation.passwordLength' })
  password: string;

  @ApiProperty({ description: 'A 6-digit code from the authenticator app, or an unused recovery code', maxLength: TWO_FACTOR_CODE_MAX })
  @TwoFactorCodeField()
  code: string;
}

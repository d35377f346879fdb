import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from '@vigil/proto';

export const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** An empty optional address means "no address". */
const trimOrNull = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  return value.trim() === '' ? null : value.trim();
};

/** Decorators shared by every DTO field of the same meaning; `required` decides absent vs. present-but-bad. */
export function UsernameField(required: boolean): PropertyDecorator {
  return (target, key) => {
    Transform(trim)(target, key);
    if (!required) IsOptional()(target, key);
    IsNotEmpty({ message: 'validation.usernameRequired' })(target, key);
    IsString({ message: 'validation.usernameRequired' })(target, key);
    Length(USERNAME_MIN, USERNAME_MAX, { message: 'validation.usernameFormat' })(target, key);
    Matches(USERNAME_PATTERN, { message: 'validation.usernameFormat' })(target, key);
  };
}

export function NewPasswordField(required: boolean): PropertyDecorator {
  return (target, key) => {
    if (!required) IsOptional()(target, key);
    IsNotEmpty({ message: 'validation.passwordRequired' })(target, key);
    IsString({ message: 'validation.passwordRequired' })(target, key);
    Length(PASSWORD_MIN, PASSWORD_MAX, { message: 'validation.passwordLength' })(target, key);
  };
}

export function OptionalEmailField(): PropertyDecorator {
  return (target, key) => {
    Transform(trimOrNull)(target, key);
    ValidateIf((_, value) => value !== null && value !== undefined)(target, key);
    IsString({ message: 'validation.emailInvalid' })(target, key);
    MaxLength(EMAIL_MAX, { message: 'validation.emailInvalid' })(target, key);
    IsEmail({}, { message: 'validation.emailInvalid' })(target, key);
  };
}

/** A required address, for self-registration. */
export function RequiredEmailField(): PropertyDecorator {
  return (target, key) => {
    Transform(trim)(target, key);
    IsNotEmpty({ message: 'validation.emailRequired' })(target, key);
    IsString({ message: 'validation.emailRequired' })(target, key);
    MaxLength(EMAIL_MAX, { message: 'validation.emailInvalid' })(target, key);
    IsEmail({}, { message: 'validation.emailInvalid' })(target, key);
  };
}

import { EMAIL_MAX, type MessageCode, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from '@vigil/proto';

/**
 * Client-side checks mirroring the server's (proto/limits.ts), answering with the same message codes so the form
 * shows exactly what the server would say, only sooner.
 */
export function checkUsername(value: string): MessageCode | null {
  const username = value.trim();
  if (!username) return 'validation.usernameRequired';
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX || !USERNAME_PATTERN.test(username)) {
    return 'validation.usernameFormat';
  }
  return null;
}

export function checkNewPassword(value: string): MessageCode | null {
  if (!value) return 'validation.passwordRequired';
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) return 'validation.passwordLength';
  return null;
}

// Deliberately loose (something@something.tld): the server has the final word on addresses.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(value: string, required: boolean): MessageCode | null {
  const email = value.trim();
  if (!email) return required ? 'validation.emailRequired' : null;
  if (email.length > EMAIL_MAX || !EMAIL_SHAPE.test(email)) return 'validation.emailInvalid';
  return null;
}

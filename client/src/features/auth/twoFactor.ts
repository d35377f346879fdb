import { ApiError } from '../../api/http';

/** Sign-in's 401 that asks for (or refused) the second factor: the password was right, a code is still needed. */
export function isTwoFactorChallenge(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 401 && (error.code === 'auth.twoFactorRequired' || error.code === 'auth.twoFactorInvalid')
  );
}

/**
 * Every message the API can answer with, keyed by a stable code. The English texts are the spec's own
 * (section 8) where it names them; the client translates by code and falls back to the text.
 */
export const MESSAGES = {
  'auth.invalidCredentials': 'Username or password is incorrect',
  'auth.loginFailed': 'Login failed, please try again later',
  'auth.loginSuccess': 'Login successful',
  'auth.registrationFailed': 'Registration failed, please try again later',
  'auth.registered': 'Registration successful, please login',
  'auth.registrationClosed': 'Registration is closed; ask an administrator to create your account',
  'auth.usernameExists': 'Username already exists',
  'auth.emailExists': 'Email already exists',
  'auth.tooManyAttempts': 'Too many failed login attempts, please try again in a few minutes',
  'auth.required': 'Please log in first',
  'auth.tokenInvalid': 'Your session has expired, please log in again',
  'auth.forbidden': 'You do not have permission to do this',
  'auth.fetchUserFailed': 'Failed to fetch user information',

  'users.notFound': 'User does not exist',
  'users.created': 'User created',
  'users.updated': 'User updated',
  'users.deleted': 'User deleted',
  'users.cannotDeleteSelf': 'You cannot delete your own account',
  'users.lastAdmin': 'The last admin cannot be deleted or demoted',
  'users.currentPasswordWrong': 'Current password is incorrect',
  'users.passwordChanged': 'Password changed',
  'users.ownPasswordOnly': 'You can only change your own password',

  'settings.saved': 'Settings saved',

  'monitors.notFound': 'Monitor does not exist',
  'monitors.created': 'Monitor created',
  'monitors.updated': 'Monitor updated',
  'monitors.deleted': 'Monitor deleted',
  'monitors.paused': 'Monitor paused',
  'monitors.resumed': 'Monitor resumed',
  'monitors.checkCompleted': 'Monitor check completed',
  'monitors.createFailed': 'Failed to create monitor, please try again later',
  'monitors.nameRequired': 'Monitor name is required',
  'monitors.urlRequired': 'URL is required',
  'monitors.urlInvalid': 'URL must start with http:// or https://',
  'monitors.methodInvalid': 'Method must be one of GET, POST, PUT, PATCH, DELETE, HEAD',
  'monitors.intervalInvalid': 'Interval must be a whole number of seconds, at least 60',
  'monitors.timeoutInvalid': 'Timeout must be at least 1 second and shorter than the interval',
  'monitors.expectedStatusInvalid': 'Expected status must be 2 to 5 for a class, or an HTTP status code from 100 to 599',
  'monitors.headersInvalid': 'Headers must be an object of names to text values, or that object as JSON',
  'monitors.bodyTooLarge': 'Body must be at most 64 KB',
  'monitors.retriesInvalid': 'Retries must be a whole number from 0 to 10',
  'monitors.retryIntervalInvalid': 'Retry interval must be a whole number of seconds from 10 to 3600',
  'monitors.rangeInvalid': 'Range must be one of 24h, 7d, 30d, 90d',

  'validation.usernameRequired': 'Username is required',
  'validation.usernameFormat': 'Username must be 3 to 32 characters: letters, digits, _ . or -',
  'validation.passwordRequired': 'Password is required',
  'validation.passwordLength': 'Password must be 8 to 128 characters',
  'validation.emailRequired': 'Email is required',
  'validation.emailInvalid': 'Email address is invalid',
  'validation.roleInvalid': 'Role must be admin or user',
  'validation.currentPasswordRequired': 'Current password is required',
  'validation.booleanRequired': 'A true or false value is required',
  'validation.unknownField': 'Unknown field in request',
  'validation.failed': 'The request is invalid',

  'request.invalidId': 'invalid id',
  'request.malformedJson': 'Malformed JSON in request body',
  'request.bodyTooLarge': 'Request body is too large (limit 1 MB)',
  'request.notFound': 'Not found',
  'request.tooMany': 'Too many requests, please slow down',
  'request.internalError': 'Internal server error',
  'health.databaseDown': 'Database is not reachable',
} as const;

export type MessageCode = keyof typeof MESSAGES;

export function isMessageCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(MESSAGES, value);
}

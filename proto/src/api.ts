import type { MessageCode } from './messages';

/** `viewer` reads what a `user` reads and changes nothing but its own account. */
export type Role = 'admin' | 'user' | 'viewer';
export const ROLES: readonly Role[] = ['admin', 'user', 'viewer'];

export interface ApiError {
  success: false;
  message: string;
  code?: MessageCode;
  /** The request field the message is about, where one is (a channel's config field). */
  field?: string;
  requestId?: string;
}

export interface UserDto {
  id: number;
  username: string;
  email: string | null;
  role: Role;
  created_at: string;
}

export interface LoginRequest {
  username: string;
  password: string;
  /** A 6-digit authenticator code or an unused recovery code, when the account has two-factor sign-in. */
  code?: string;
}
export interface LoginResponse {
  success: true;
  message: string;
  token: string;
  user: UserDto;
  /** Present (true) when admins require two-factor sign-in and this account has not set it up yet. */
  twoFactorSetupRequired?: boolean;
}
/** `POST /api/auth/login` answers 401 with this when the password was right but a code is missing or wrong. */
export interface TwoFactorRequiredError extends ApiError {
  twoFactorRequired: true;
}

export interface RegisterRequest {
  username: string;
  password: string;
  email: string;
}
export interface RegisterResponse {
  success: true;
  message: string;
  user: UserDto;
}

export interface MeResponse {
  success: true;
  user: UserDto;
  /** As in `LoginResponse`: admins require two-factor sign-in and this account has not set it up yet. */
  twoFactorSetupRequired?: boolean;
}

/** Two-factor sign-in: TOTP (RFC 6238, SHA-1) with these parameters, and this many one-time recovery codes. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

/** `GET /api/auth/2fa`: the caller's own two-factor state. */
export interface TwoFactorStatusResponse {
  success: true;
  enabled: boolean;
  /** Unused recovery codes left (0 while disabled). */
  recoveryCodesLeft: number;
  /** Whether admins require two-factor sign-in for everyone. */
  required: boolean;
}
/** `POST /api/auth/2fa/setup`: a new pending secret (base32), replacing any earlier pending one. */
export interface TwoFactorSetupResponse {
  success: true;
  secret: string;
  otpauthUrl: string;
}
export interface TwoFactorCodeRequest {
  code: string;
}
/** `POST /api/auth/2fa/disable`: the password and a current code or an unused recovery code. */
export interface TwoFactorDisableRequest {
  password: string;
  code: string;
}
/** Enabling or regenerating answers the recovery codes, once: they are stored hashed. */
export interface RecoveryCodesResponse {
  success: true;
  message: string;
  recoveryCodes: string[];
}

export interface UsersResponse {
  success: true;
  users: UserDto[];
}
/** `GET /api/users?page=&pageSize=&search=`: the spec's `users`, one page of them, and the paging facts. */
export interface UsersPageResponse extends UsersResponse {
  total: number;
  page: number;
  pageSize: number;
}
export interface UserResponse {
  success: true;
  message?: string;
  user: UserDto;
}

export interface CreateUserRequest {
  username: string;
  password: string;
  email?: string | null;
  role?: Role;
}

/** `PUT /api/users/{id}`; `role` and `password` are honoured for admins only. */
export interface UpdateUserRequest {
  username?: string;
  email?: string | null;
  role?: Role;
  password?: string;
}

export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
}
/** The change revokes every older token, this session's included, so the answer carries a fresh one. */
export interface ChangePasswordResponse {
  success: true;
  message: string;
  code?: MessageCode;
  token: string;
}

export interface MessageResponse {
  success: boolean;
  message: string;
  code?: MessageCode;
}

export interface InstanceSettings {
  allowRegistration: boolean;
  /** Every account must set up two-factor sign-in (those without it are led to the setup after signing in). */
  requireTwoFactor: boolean;
  /**
   * Passwords no longer sign in; single sign-on does. Refused unless an admin has a single sign-on identity; admins keep
   * their passwords while no admin could sign in with a configured provider.
   */
  passwordLoginDisabled: boolean;
}
/** `PUT /api/settings`: the settings to change; those left out stay as they are. */
export type UpdateSettingsRequest = Partial<InstanceSettings>;
export interface SettingsResponse {
  success: true;
  settings: InstanceSettings;
}

/** A single sign-on provider the login page offers: `GET /api/auth/sso/{id}/start` begins the sign-in. */
export interface SsoProvider {
  id: string;
  /** The button's label ("Sign in with <name>"). */
  name: string;
}
/** `GET /api/auth/sso/providers` (public). */
export interface SsoProvidersResponse {
  success: true;
  providers: SsoProvider[];
  passwordLoginDisabled: boolean;
}

/** Public facts the login and register pages need before anyone signs in. */
export interface AuthStatusResponse {
  success: true;
  /** True until the first account (the admin) exists. */
  needsSetup: boolean;
  allowRegistration: boolean;
}

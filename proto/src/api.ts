import type { MessageCode } from './messages';

export type Role = 'admin' | 'user';
export const ROLES: readonly Role[] = ['admin', 'user'];

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
}
export interface LoginResponse {
  success: true;
  message: string;
  token: string;
  user: UserDto;
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
}
export interface SettingsResponse {
  success: true;
  settings: InstanceSettings;
}

/** Public facts the login and register pages need before anyone signs in. */
export interface AuthStatusResponse {
  success: true;
  /** True until the first account (the admin) exists. */
  needsSetup: boolean;
  allowRegistration: boolean;
}

import type {
  CreateUserRequest,
  MessageResponse,
  UpdateUserRequest,
  UserResponse,
  UsersPageResponse,
  ChangePasswordRequest,
  ChangePasswordResponse,
} from '@vigil/proto';
import { http } from '../../api/http';

export const usersApi = {
  list: (page: number, pageSize: number, signal?: AbortSignal) =>
    http.get<UsersPageResponse>(`/api/users?page=${page}&pageSize=${pageSize}`, { signal }),
  get: (id: number, signal?: AbortSignal) => http.get<UserResponse>(`/api/users/${id}`, { signal }),
  create: (body: CreateUserRequest) => http.post<UserResponse>('/api/users', body),
  update: (id: number, body: UpdateUserRequest) => http.put<UserResponse>(`/api/users/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/api/users/${id}`),
  /** Admins: turns another user's two-factor sign-in off. */
  resetTwoFactor: (id: number) => http.delete<MessageResponse>(`/api/auth/2fa/users/${id}`),
  /** Answers with a new token: the change invalidates every older one, this session's included. */
  changePassword: (id: number, body: ChangePasswordRequest) => http.post<ChangePasswordResponse>(`/api/users/${id}/change-password`, body),
};

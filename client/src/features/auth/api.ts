import type { AuthStatusResponse, LoginRequest, LoginResponse, MeResponse, RegisterRequest, RegisterResponse } from '@vigil/proto';
import { http } from '../../api/http';

export const authApi = {
  // A 401 here means wrong credentials, shown on the form; it must not be treated as an expired session.
  login: (body: LoginRequest) => http.post<LoginResponse>('/api/auth/login', body, { expireOn401: false }),
  register: (body: RegisterRequest) => http.post<RegisterResponse>('/api/auth/register', body),
  me: () => http.get<MeResponse>('/api/auth/me'),
  status: (signal?: AbortSignal) => http.get<AuthStatusResponse>('/api/auth/status', { signal }),
};

import type { UserDto } from '@vigil/proto';
import { create } from 'zustand';
import { ApiError, onUnauthorized } from '../../api/http';
import { loginRedirectHeld, navigateTo } from '../../app/navigation';
import { authApi } from './api';
import { clearSession, readSession, writeToken, writeUser } from './session';

export type LoginResult = { success: true; user: UserDto } | { success: false; error: unknown };

interface AuthState {
  user: UserDto | null;
  token: string | null;
  /** True until the stored session has been restored or rejected at startup. */
  loading: boolean;
  init: () => Promise<void>;
  login: (username: string, password: string) => Promise<LoginResult>;
  logout: () => void;
  /** Replaces the signed-in user after a profile change or a live update of the same account. */
  setUser: (user: UserDto) => void;
  /** Stores the token the server issues after a password change (older tokens stop working). */
  setToken: (token: string) => void;
  /** Re-reads the signed-in user; a 401 on the way ends the session through the API client. */
  refreshUser: () => Promise<void>;
}

/** The signed-in session: the user, their token and whether startup restoration is still running (spec section 4). */
export const useAuthStore = create<AuthState>()((set, get) => ({
  user: null,
  token: null,
  loading: true,
  async init() {
    const { token, user } = readSession();
    if (token && user) {
      set({ token, user, loading: false });
      return;
    }
    if (!token) {
      clearSession();
      set({ token: null, user: null, loading: false });
      return;
    }
    set({ token, user: null, loading: true });
    try {
      const response = await authApi.me();
      if (!response.user) throw new ApiError({ status: 200, message: '', code: 'auth.fetchUserFailed' });
      writeUser(response.user);
      set({ user: response.user, loading: false });
    } catch {
      clearSession();
      set({ token: null, user: null, loading: false });
    }
  },
  async login(username, password) {
    try {
      const response = await authApi.login({ username, password });
      if (!response.token || !response.user) {
        return { success: false, error: new ApiError({ status: 200, message: '', code: 'auth.loginFailed' }) };
      }
      writeToken(response.token);
      writeUser(response.user);
      set({ token: response.token, user: response.user, loading: false });
      return { success: true, user: response.user };
    } catch (error) {
      return { success: false, error };
    }
  },
  logout() {
    clearSession();
    set({ token: null, user: null, loading: false });
    navigateTo('/login', { replace: true });
  },
  setUser(user) {
    if (!get().token) return;
    writeUser(user);
    set({ user });
  },
  setToken(token) {
    writeToken(token);
    set({ token });
  },
  async refreshUser() {
    if (!get().token) return;
    try {
      const response = await authApi.me();
      if (response.user) get().setUser(response.user);
    } catch {
      // A 401 already ended the session; other failures keep the current state until the next call decides.
    }
  },
}));

/** Authenticated means a token exists (spec section 4). */
export const selectIsAuthenticated = (state: AuthState) => state.token !== null;
export const selectIsAdmin = (state: AuthState) => state.token !== null && state.user?.role === 'admin';

// The API client has already cleared storage on a 401; the state follows and the user is sent to sign in again.
onUnauthorized(() => {
  if (useAuthStore.getState().token === null) return;
  useAuthStore.setState({ token: null, user: null, loading: false });
  if (!loginRedirectHeld()) navigateTo('/login', { replace: true });
});

import type { UserDto } from '@vigil/proto';
import { create } from 'zustand';
import { ApiError, onUnauthorized } from '../../api/http';
import { loginRedirectHeld, navigateTo } from '../../app/navigation';
import { authApi } from './api';
import { clearSession, readSession, readTwoFactorSetupRequired, writeToken, writeTwoFactorSetupRequired, writeUser } from './session';

export type LoginResult = { success: true; user: UserDto } | { success: false; error: unknown };

interface AuthState {
  user: UserDto | null;
  token: string | null;
  /** True until the stored session has been restored or rejected at startup. */
  loading: boolean;
  /** Admins require two-factor sign-in and this account has not set it up: every page leads to the profile's setup. */
  twoFactorSetupRequired: boolean;
  init: () => Promise<void>;
  /** `code`: the authenticator or recovery code, on the second step of a two-factor sign-in. */
  login: (username: string, password: string, code?: string) => Promise<LoginResult>;
  logout: () => void;
  /** Replaces the signed-in user after a profile change or a live update of the same account. */
  setUser: (user: UserDto) => void;
  /** Stores the token the server issues after a password change (older tokens stop working). */
  setToken: (token: string) => void;
  /** Re-reads the signed-in user; a 401 on the way ends the session through the API client. */
  refreshUser: () => Promise<void>;
  setTwoFactorSetupRequired: (required: boolean) => void;
}

/** The signed-in session: the user, their token and whether startup restoration is still running (spec section 4). */
export const useAuthStore = create<AuthState>()((set, get) => ({
  user: null,
  token: null,
  loading: true,
  twoFactorSetupRequired: readTwoFactorSetupRequired(),
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
      get().setTwoFactorSetupRequired(response.twoFactorSetupRequired === true);
      set({ user: response.user, loading: false });
    } catch {
      clearSession();
      set({ token: null, user: null, loading: false });
    }
  },
  async login(username, password, code) {
    try {
      const response = await authApi.login({ username, password, ...(code === undefined ? {} : { code }) });
      if (!response.token || !response.user) {
        return { success: false, error: new ApiError({ status: 200, message: '', code: 'auth.loginFailed' }) };
      }
      writeToken(response.token);
      writeUser(response.user);
      get().setTwoFactorSetupRequired(response.twoFactorSetupRequired === true);
      set({ token: response.token, user: response.user, loading: false });
      return { success: true, user: response.user };
    } catch (error) {
      return { success: false, error };
    }
  },
  logout() {
    clearSession();
    set({ token: null, user: null, loading: false, twoFactorSetupRequired: false });
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
      get().setTwoFactorSetupRequired(response.twoFactorSetupRequired === true);
    } catch {
      // A 401 already ended the session; other failures keep the current state until the next call decides.
    }
  },
  setTwoFactorSetupRequired(required) {
    writeTwoFactorSetupRequired(required);
    set({ twoFactorSetupRequired: required });
  },
}));

/** Authenticated means a token exists (spec section 4). */
export const selectIsAuthenticated = (state: AuthState) => state.token !== null;
export const selectIsAdmin = (state: AuthState) => state.token !== null && state.user?.role === 'admin';
/** Whether to offer changes: not to a `viewer`, who only reads (the server refuses its writes anyway). */
export const selectCanWrite = (state: AuthState) => state.user?.role !== 'viewer';

// The API client has already cleared storage on a 401; the state follows and the user is sent to sign in again.
onUnauthorized(() => {
  if (useAuthStore.getState().token === null) return;
  useAuthStore.setState({ token: null, user: null, loading: false, twoFactorSetupRequired: false });
  if (!loginRedirectHeld()) navigateTo('/login', { replace: true });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '../../app/navigation';
import { ADMIN, jsonResponse } from '../../test/render';
import { useAuthStore } from './store';

describe('auth store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let navigate: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    navigate = vi.spyOn(navigation, 'navigateTo').mockImplementation(() => undefined);
    useAuthStore.setState({ user: null, token: null, loading: true });
  });

  describe('restoring at startup', () => {
    it('restores token and user from storage without calling the server', async () => {
      localStorage.setItem('token', 't1');
      localStorage.setItem('user', JSON.stringify(ADMIN));

      await useAuthStore.getState().init();

      expect(useAuthStore.getState()).toMatchObject({ token: 't1', user: ADMIN, loading: false });
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('with only a token, fetches the current user and stores it', async () => {
      localStorage.setItem('token', 't1');
      fetchMock.mockResolvedValue(jsonResponse(200, { success: true, user: ADMIN }));

      const pending = useAuthStore.getState().init();
      expect(useAuthStore.getState().loading).toBe(true);
      await pending;

      expect(fetchMock).toHaveBeenCalledWith('/api/auth/me', expect.objectContaining({ method: 'GET' }));
      expect(useAuthStore.getState()).toMatchObject({ token: 't1', user: ADMIN, loading: false });
      expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(ADMIN);
    });

    it('with only a token that the server rejects, clears storage and state', async () => {
      localStorage.setItem('token', 'stale');
      fetchMock.mockResolvedValue(jsonResponse(401, { success: false, message: 'expired', code: 'auth.tokenInvalid' }));

      await useAuthStore.getState().init();

      expect(useAuthStore.getState()).toMatchObject({ token: null, user: null, loading: false });
      expect(localStorage.getItem('token')).toBeNull();
      expect(localStorage.getItem('user')).toBeNull();
    });

    it('with only a token and an unreachable server, clears the session too', async () => {
      localStorage.setItem('token', 't1');
      fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

      await useAuthStore.getState().init();

      expect(useAuthStore.getState()).toMatchObject({ token: null, user: null, loading: false });
      expect(localStorage.getItem('token')).toBeNull();
    });

    it('with a successful answer that carries no user, clears the session', async () => {
      localStorage.setItem('token', 't1');
      fetchMock.mockResolvedValue(jsonResponse(200, { success: true }));

      await useAuthStore.getState().init();

      expect(useAuthStore.getState()).toMatchObject({ token: null, user: null, loading: false });
      expect(localStorage.getItem('token')).toBeNull();
    });

    it('with nothing stored, ends loading as a visitor and drops a stray user entry', async () => {
      localStorage.setItem('user', JSON.stringify(ADMIN));

      await useAuthStore.getState().init();

      expect(useAuthStore.getState()).toMatchObject({ token: null, user: null, loading: false });
      expect(localStorage.getItem('user')).toBeNull();
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('treats an unreadable user entry as missing and asks the server', async () => {
      localStorage.setItem('token', 't1');
      localStorage.setItem('user', '{not json');
      fetchMock.mockResolvedValue(jsonResponse(200, { success: true, user: ADMIN }));

      await useAuthStore.getState().init();

      expect(useAuthStore.getState().user).toEqual(ADMIN);
    });
  });

  describe('login', () => {
    it('stores token and user when the answer has success, token and user', async () => {
      fetchMock.mockResolvedValue(jsonResponse(200, { success: true, message: 'Login successful', token: 't2', user: ADMIN }));

      const result = await useAuthStore.getState().login('alice', 'secret-password');

      expect(result.success).toBe(true);
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/auth/login',
        expect.objectContaining({ method: 'POST', body: JSON.stringify({ username: 'alice', password: 'secret-password' }) }),
      );
      expect(useAuthStore.getState()).toMatchObject({ token: 't2', user: ADMIN });
      expect(localStorage.getItem('token')).toBe('t2');
      expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(ADMIN);
    });

    it('stores nothing when the answer lacks the token', async () => {
      fetchMock.mockResolvedValue(jsonResponse(200, { success: true, user: ADMIN }));

      const result = await useAuthStore.getState().login('alice', 'secret-password');

      expect(result.success).toBe(false);
      expect(localStorage.getItem('token')).toBeNull();
      expect(useAuthStore.getState().token).toBeNull();
    });

    it('reports wrong credentials without storing anything', async () => {
      fetchMock.mockResolvedValue(
        jsonResponse(401, { success: false, message: 'Username or password is incorrect', code: 'auth.invalidCredentials' }),
      );

      const result = await useAuthStore.getState().login('alice', 'wrong-password');

      expect(result).toMatchObject({ success: false, error: { code: 'auth.invalidCredentials' } });
      expect(localStorage.getItem('token')).toBeNull();
      expect(navigate).not.toHaveBeenCalled();
    });
  });

  it('logout clears storage and state and goes to /login', () => {
    localStorage.setItem('token', 't1');
    localStorage.setItem('user', JSON.stringify(ADMIN));
    useAuthStore.setState({ token: 't1', user: ADMIN, loading: false });

    useAuthStore.getState().logout();

    expect(useAuthStore.getState()).toMatchObject({ token: null, user: null });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('setToken keeps the session on the token issued after a password change', () => {
    useAuthStore.setState({ token: 'old', user: ADMIN, loading: false });
    useAuthStore.getState().setToken('new');
    expect(useAuthStore.getState().token).toBe('new');
    expect(localStorage.getItem('token')).toBe('new');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '../app/navigation';
import { useAuthStore } from '../features/auth/store';
import { authApi } from '../features/auth/api';
import { ADMIN, jsonResponse } from '../test/render';
import { ApiError, apiRequest } from './http';

describe('apiRequest', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.setState({ user: null, token: null, loading: false });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends JSON without cookies and with the stored token as a Bearer header', async () => {
    localStorage.setItem('token', 'abc');
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, value: 1 }));

    const body = await apiRequest<{ value: number }>('/api/things', { method: 'POST', body: { a: 1 } });

    expect(body.value).toBe(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/things');
    expect(init.credentials).toBe('omit');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer abc', 'Content-Type': 'application/json' });
  });

  it('sends no Authorization header when no token is stored', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true }));
    await apiRequest('/api/auth/status');
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).not.toHaveProperty('Authorization');
  });

  it('turns an error answer into an ApiError carrying status, code and message', async () => {
    fetchMock.mockResolvedValue(jsonResponse(409, { success: false, message: 'Username already exists', code: 'auth.usernameExists' }));
    const error = await apiRequest('/api/auth/register', { method: 'POST', body: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'auth.usernameExists', message: 'Username already exists', kind: 'http' });
  });

  it('treats a 200 answer with success false as a failure', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { success: false, message: 'nope' }));
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ message: 'nope', code: undefined });
  });

  it('ignores codes the contract does not know', async () => {
    fetchMock.mockResolvedValue(jsonResponse(400, { success: false, message: 'odd', code: 'made.up' }));
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ code: undefined, message: 'odd' });
  });

  it('reports a network failure as a network error', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ kind: 'network', status: 0 });
  });

  it('aborts a request that outlives the timeout and reports it as a timeout', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = apiRequest('/api/slow', { timeoutMs: 500 }).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(499);
    expect(fetchMock.mock.calls[0][1].signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ kind: 'timeout' });
  });

  it('on any 401 clears the stored session and the auth state, then goes to /login', async () => {
    const navigate = vi.spyOn(navigation, 'navigateTo').mockImplementation(() => undefined);
    localStorage.setItem('token', 'expired');
    localStorage.setItem('user', JSON.stringify(ADMIN));
    useAuthStore.setState({ token: 'expired', user: ADMIN, loading: false });
    fetchMock.mockResolvedValue(
      jsonResponse(401, { success: false, message: 'Your session has expired, please log in again', code: 'auth.tokenInvalid' }),
    );

    await expect(apiRequest('/api/users')).rejects.toMatchObject({ status: 401 });

    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(useAuthStore.getState()).toMatchObject({ token: null, user: null });
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it("keeps the session on the login call's 401, which only means wrong credentials", async () => {
    const navigate = vi.spyOn(navigation, 'navigateTo').mockImplementation(() => undefined);
    localStorage.setItem('token', 'still-valid');
    fetchMock.mockResolvedValue(
      jsonResponse(401, { success: false, message: 'Username or password is incorrect', code: 'auth.invalidCredentials' }),
    );

    await expect(authApi.login({ username: 'a', password: 'b' })).rejects.toMatchObject({ code: 'auth.invalidCredentials' });

    expect(localStorage.getItem('token')).toBe('still-valid');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('sends a display key instead of the stored token, and its 401 ends no session', async () => {
    const navigate = vi.spyOn(navigation, 'navigateTo').mockImplementation(() => undefined);
    localStorage.setItem('token', 'expired');
    useAuthStore.setState({ token: 'expired', user: ADMIN, loading: false });
    fetchMock.mockResolvedValue(
      jsonResponse(401, { success: false, message: 'This display link is invalid or was revoked', code: 'wall.keyInvalid' }),
    );

    await expect(apiRequest('/api/wall/data', { displayKey: 'vgd_secret' })).rejects.toMatchObject({
      status: 401,
      code: 'wall.keyInvalid',
    });

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/wall/data');
    expect(init.headers).toMatchObject({ 'X-Display-Key': 'vgd_secret' });
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(localStorage.getItem('token')).toBe('expired');
    expect(useAuthStore.getState().token).toBe('expired');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('ends a stale session without leaving a screen that holds the sign-in redirect', async () => {
    const navigate = vi.spyOn(navigation, 'navigateTo').mockImplementation(() => undefined);
    localStorage.setItem('token', 'expired');
    useAuthStore.setState({ token: 'expired', user: ADMIN, loading: false });
    fetchMock.mockResolvedValue(jsonResponse(401, { success: false, message: 'expired', code: 'auth.tokenInvalid' }));
    const release = navigation.holdLoginRedirect();

    await expect(apiRequest('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    release();

    expect(useAuthStore.getState().token).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});

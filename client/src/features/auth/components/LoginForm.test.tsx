import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, jsonResponse, renderWithProviders, signOut } from '../../../test/render';
import { useAuthStore } from '../store';
import { LoginForm } from './LoginForm';

function renderLogin() {
  return renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginForm />} />
      <Route path="/dashboard" element={<div>dashboard</div>} />
    </Routes>,
    { route: '/login' },
  );
}

async function submit(username: string, password: string) {
  const user = userEvent.setup({ delay: null });
  if (username) await user.type(screen.getByRole('textbox', { name: /Username/ }), username);
  if (password) await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('LoginForm', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let loginAnswer: () => Promise<Response>;
  let authStatus: { needsSetup: boolean; allowRegistration: boolean };

  beforeEach(() => {
    signOut();
    authStatus = { needsSetup: false, allowRegistration: false };
    loginAnswer = () => Promise.resolve(jsonResponse(200, { success: true, message: 'Login successful', token: 't1', user: ADMIN }));
    fetchMock = vi.fn((url: string) =>
      url === '/api/auth/status' ? Promise.resolve(jsonResponse(200, { success: true, ...authStatus })) : loginAnswer(),
    );
    vi.stubGlobal('fetch', fetchMock);
  });

  it('requires username and password before calling the server', async () => {
    renderLogin();
    await submit('', '');

    expect(screen.getByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/auth/login')).toHaveLength(0);
  });

  it('signs in and goes to /dashboard', async () => {
    renderLogin();
    await submit('alice', 'secret-password');

    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(useAuthStore.getState().token).toBe('t1');
  });

  it('disables the button and shows the loading text while submitting', async () => {
    let release: (response: Response) => void = () => undefined;
    loginAnswer = () => new Promise((resolve) => (release = resolve));
    renderLogin();
    await submit('alice', 'secret-password');

    const button = screen.getByRole('button', { name: 'Loading...' });
    expect(button).toBeDisabled();
    release(jsonResponse(200, { success: true, token: 't1', user: ADMIN }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
  });

  it('shows wrong credentials in red on the form and stays on /login', async () => {
    loginAnswer = () =>
      Promise.resolve(jsonResponse(401, { success: false, message: 'Username or password is incorrect', code: 'auth.invalidCredentials' }));
    renderLogin();
    await submit('alice', 'wrong-password');

    expect(await screen.findByTestId('form-error')).toHaveTextContent('Username or password is incorrect');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('shows the generic login error when the server cannot be reached', async () => {
    loginAnswer = () => Promise.reject(new TypeError('Failed to fetch'));
    renderLogin();
    await submit('alice', 'secret-password');

    expect(await screen.findByTestId('form-error')).toHaveTextContent('Cannot reach the server');
  });

  it('links to registration only while registration is possible', async () => {
    authStatus = { needsSetup: true, allowRegistration: false };
    const { unmount } = renderLogin();
    expect(await screen.findByText(/No account exists yet/)).toBeInTheDocument();
    expect(screen.getByTestId('register-link')).toHaveAttribute('href', '/register');
    unmount();

    authStatus = { needsSetup: false, allowRegistration: false };
    renderLogin();
    await vi.waitFor(() => expect(screen.queryByTestId('register-link')).not.toBeInTheDocument());
  });

  it('remembers the username for the next visit when "remember me" is ticked', async () => {
    renderLogin();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await submit('alice', 'secret-password');
    await screen.findByText('dashboard');

    expect(localStorage.getItem('rememberedUsername')).toBe('alice');
  });
});

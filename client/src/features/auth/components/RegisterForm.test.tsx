import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, signOut } from '../../../test/render';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

function renderRegister() {
  return renderWithProviders(
    <Routes>
      <Route path="/register" element={<RegisterForm />} />
      <Route path="/login" element={<LoginForm />} />
    </Routes>,
    { route: '/register' },
  );
}

async function fill(values: { username: string; email: string; password: string; confirmPassword: string }) {
  const user = userEvent.setup({ delay: null });
  await user.type(screen.getByRole('textbox', { name: /Username/ }), values.username);
  await user.type(screen.getByRole('textbox', { name: /Email/ }), values.email);
  await user.type(screen.getByLabelText(/^Password/), values.password);
  await user.type(screen.getByLabelText(/^Confirm password/), values.confirmPassword);
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

const registerCalls = (fetchMock: ReturnType<typeof vi.fn>) => fetchMock.mock.calls.filter(([url]) => url === '/api/auth/register');

describe('RegisterForm', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let authStatus: { needsSetup: boolean; allowRegistration: boolean };

  beforeEach(() => {
    signOut();
    authStatus = { needsSetup: false, allowRegistration: true };
    fetchMock = vi.fn((url: string) => {
      if (url === '/api/auth/status') return Promise.resolve(jsonResponse(200, { success: true, ...authStatus }));
      if (url === '/api/auth/register') {
        return Promise.resolve(jsonResponse(201, { success: true, message: 'Registration successful, please login', user: {} }));
      }
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('shows the mismatch message and sends no request when the passwords differ', async () => {
    renderRegister();
    await fill({ username: 'carol', email: 'carol@example.com', password: 'password-one', confirmPassword: 'password-two' });

    expect(screen.getByTestId('form-error')).toHaveTextContent('Passwords do not match');
    expect(registerCalls(fetchMock)).toHaveLength(0);
  });

  it('requires every field and sends nothing while one is empty', async () => {
    renderRegister();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(screen.getByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter the password again')).toBeInTheDocument();
    expect(registerCalls(fetchMock)).toHaveLength(0);
  });

  it.each([
    ['ab', 'Username must be 3 to 32 characters: letters, digits, _ . or -'],
    ['has space', 'Username must be 3 to 32 characters: letters, digits, _ . or -'],
  ])('refuses the username %j as the server would', async (username, message) => {
    renderRegister();
    await fill({ username, email: 'carol@example.com', password: 'password-one', confirmPassword: 'password-one' });

    expect(screen.getByText(message)).toBeInTheDocument();
    expect(registerCalls(fetchMock)).toHaveLength(0);
  });

  it('refuses a password shorter than 8 characters', async () => {
    renderRegister();
    await fill({ username: 'carol', email: 'carol@example.com', password: 'short', confirmPassword: 'short' });

    expect(screen.getByText('Password must be 8 to 128 characters')).toBeInTheDocument();
    expect(registerCalls(fetchMock)).toHaveLength(0);
  });

  it('has an email-typed email field and named inputs', () => {
    renderRegister();
    expect(screen.getByRole('textbox', { name: /Email/ })).toHaveAttribute('type', 'email');
    for (const name of ['username', 'email', 'password', 'confirmPassword']) {
      expect(document.querySelector(`input[name="${name}"]`)).not.toBeNull();
    }
  });

  it('registers and lands on /login with the green success message', async () => {
    renderRegister();
    await fill({ username: 'carol', email: 'carol@example.com', password: 'password-one', confirmPassword: 'password-one' });

    expect(await screen.findByTestId('form-success')).toHaveTextContent('Registration successful, please login');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    const [, init] = registerCalls(fetchMock)[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ username: 'carol', email: 'carol@example.com', password: 'password-one' });
  });

  it("shows the server's reason, translated, when registration fails", async () => {
    fetchMock.mockImplementation((url: string) =>
      Promise.resolve(
        url === '/api/auth/status'
          ? jsonResponse(200, { success: true, ...authStatus })
          : jsonResponse(409, { success: false, message: 'Username already exists', code: 'auth.usernameExists' }),
      ),
    );
    renderRegister();
    await fill({ username: 'carol', email: 'carol@example.com', password: 'password-one', confirmPassword: 'password-one' });

    expect(await screen.findByTestId('form-error')).toHaveTextContent('Username already exists');
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });

  it('tells the first visitor that their account becomes the administrator', async () => {
    authStatus = { needsSetup: true, allowRegistration: false };
    renderRegister();

    expect(await screen.findByTestId('register-first-admin')).toHaveTextContent('becomes the administrator');
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });

  it('says registration is closed, before any submit, when an admin has switched it off', async () => {
    authStatus = { needsSetup: false, allowRegistration: false };
    renderRegister();

    expect(await screen.findByTestId('register-closed')).toHaveTextContent('Registration is closed');
    expect(screen.getByRole('button', { name: 'Register' })).toBeDisabled();
  });
});

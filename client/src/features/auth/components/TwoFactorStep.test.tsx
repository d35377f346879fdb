import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, jsonResponse, renderWithProviders, signOut } from '../../../test/render';
import { useAuthStore } from '../store';
import { LoginForm } from './LoginForm';

const challenge = (code: 'auth.twoFactorRequired' | 'auth.twoFactorInvalid', message: string) =>
  jsonResponse(401, { success: false, twoFactorRequired: true, message, code });

describe('LoginForm with two-factor sign-in', () => {
  let bodies: Array<Record<string, unknown>>;
  let answers: Array<() => Response>;

  beforeEach(() => {
    signOut();
    bodies = [];
    answers = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        if (url === '/api/auth/status')
          return Promise.resolve(jsonResponse(200, { success: true, needsSetup: false, allowRegistration: false }));
        bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return Promise.resolve(answers.shift()!());
      }),
    );
  });

  async function signInWithPassword() {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(
      <Routes>
        <Route path="/login" element={<LoginForm />} />
        <Route path="/dashboard" element={<div>dashboard</div>} />
      </Routes>,
      { route: '/login' },
    );
    await user.type(screen.getByRole('textbox', { name: /Username/ }), 'alice');
    await user.type(screen.getByLabelText(/^Password/), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    return user;
  }

  it('asks for the code after the password, then signs in with it', async () => {
    answers.push(
      () => challenge('auth.twoFactorRequired', 'Enter the 6-digit code from your authenticator app'),
      () => jsonResponse(200, { success: true, message: 'Login successful', token: 't2', user: ADMIN }),
    );
    const user = await signInWithPassword();

    const code = await screen.findByRole('textbox', { name: 'Authentication code' });
    expect(screen.queryByTestId('form-error')).not.toBeInTheDocument();
    await user.type(code, '12a3456');
    expect(code).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(bodies).toEqual([
      { username: 'alice', password: 'secret-password' },
      { username: 'alice', password: 'secret-password', code: '123456' },
    ]);
    expect(useAuthStore.getState().token).toBe('t2');
  });

  it('shows a refused code on the step and lets the user switch to a recovery code', async () => {
    answers.push(
      () => challenge('auth.twoFactorRequired', 'Enter the 6-digit code from your authenticator app'),
      () => challenge('auth.twoFactorInvalid', 'The two-factor code is incorrect or was already used'),
      () => jsonResponse(200, { success: true, message: 'Login successful', token: 't3', user: ADMIN }),
    );
    const user = await signInWithPassword();

    await user.type(await screen.findByRole('textbox', { name: 'Authentication code' }), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('The two-factor code is incorrect or was already used');

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByRole('textbox', { name: 'Recovery code' }), 'abcd-efgh-ijkl-mnop');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(bodies[2]).toEqual({ username: 'alice', password: 'secret-password', code: 'abcd-efgh-ijkl-mnop' });
  });

  it('keeps the flag that leads an account without it to the setup, when admins require it', async () => {
    answers.push(() =>
      jsonResponse(200, { success: true, message: 'Login successful', token: 't4', user: ADMIN, twoFactorSetupRequired: true }),
    );
    await signInWithPassword();

    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(useAuthStore.getState().twoFactorSetupRequired).toBe(true);
    expect(localStorage.getItem('twoFactorSetupRequired')).toBe('true');
  });
});

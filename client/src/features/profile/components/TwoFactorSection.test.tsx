import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireAuth } from '../../../routes/guards';
import { ADMIN, jsonResponse, renderWithProviders, signIn } from '../../../test/render';
import { useAuthStore } from '../../auth/store';
import { TwoFactorSection } from './TwoFactorSection';

const CODES = Array.from({ length: 10 }, (_, index) => `aaaa-bbbb-cccc-${String(index).padStart(4, 'd')}`);

describe('TwoFactorSection', () => {
  let state: { enabled: boolean; recoveryCodesLeft: number; required: boolean };
  let calls: Array<{ url: string; body: unknown }>;

  beforeEach(() => {
    signIn(ADMIN);
    state = { enabled: false, recoveryCodesLeft: 0, required: false };
    calls = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
        calls.push({ url, body });
        if (url === '/api/auth/2fa') return Promise.resolve(jsonResponse(200, { success: true, ...state }));
        if (url === '/api/auth/2fa/setup') {
          return Promise.resolve(
            jsonResponse(200, {
              success: true,
              secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
              otpauthUrl: 'otpauth://totp/Vigil:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
            }),
          );
        }
        if (url === '/api/auth/2fa/enable') {
          if ((body as { code: string }).code !== '123456') {
            return Promise.resolve(
              jsonResponse(400, { success: false, message: 'The code is incorrect or was already used', code: 'twoFactor.codeInvalid' }),
            );
          }
          state = { ...state, enabled: true, recoveryCodesLeft: 10 };
          return Promise.resolve(jsonResponse(200, { success: true, message: 'Two-factor sign-in enabled', recoveryCodes: CODES }));
        }
        if (url === '/api/auth/2fa/disable') {
          state = { ...state, enabled: false, recoveryCodesLeft: 0 };
          return Promise.resolve(jsonResponse(200, { success: true, message: 'Two-factor sign-in disabled' }));
        }
        return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
      }),
    );
  });

  it('sets up with a QR code and the secret, confirms with a code and shows the recovery codes once', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<TwoFactorSection />);

    expect(await screen.findByTestId('two-factor-state')).toHaveTextContent('Not enabled');
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    );
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    await user.type(screen.getByRole('textbox', { name: 'Code from the app' }), '654321');
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('The code is incorrect or was already used');

    await user.clear(screen.getByRole('textbox', { name: 'Code from the app' }));
    await user.type(screen.getByRole('textbox', { name: 'Code from the app' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findAllByTestId('two-factor-recovery-code')).toHaveLength(10);
    expect(screen.getByText(CODES[9])).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByTestId('two-factor-recovery-codes')).not.toBeInTheDocument();
    expect(await screen.findByText('Recovery codes left: 10')).toBeInTheDocument();
    expect(screen.getByTestId('two-factor-state')).toHaveTextContent('Enabled');
  });

  it('disables with the password and a code', async () => {
    state = { enabled: true, recoveryCodesLeft: 7, required: false };
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<TwoFactorSection />);

    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.type(screen.getByRole('textbox', { name: 'Code from the app or a recovery code' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Disable two-factor sign-in' }));

    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(calls.find((call) => call.url === '/api/auth/2fa/disable')?.body).toEqual({ password: 'secret-password', code: '123456' });
  });

  it('says when admins require it, and the app leads every page to the profile until it is set up', async () => {
    state = { enabled: false, recoveryCodesLeft: 0, required: true };
    // As the sign-in answer left it.
    useAuthStore.getState().setTwoFactorSetupRequired(true);
    renderWithProviders(
      <Routes>
        <Route element={<RequireAuth />}>
          <Route path="/dashboard" element={<div>dashboard</div>} />
          <Route path="/profile" element={<TwoFactorSection />} />
        </Route>
      </Routes>,
      { route: '/dashboard' },
    );

    expect(await screen.findByTestId('two-factor-required')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/profile');
    expect(screen.queryByText('dashboard')).not.toBeInTheDocument();
    expect(useAuthStore.getState().twoFactorSetupRequired).toBe(true);
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MEMBER, jsonResponse, renderWithProviders, signIn } from '../../../test/render';
import { useAuthStore } from '../../auth/store';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ProfileInfoForm } from './ProfileInfoForm';

const user = () => userEvent.setup({ delay: null });

async function fillPasswords(current: string, next: string, confirm: string) {
  const actor = user();
  await actor.type(screen.getByLabelText(/^Current password/), current);
  await actor.type(screen.getByLabelText(/^New password/), next);
  await actor.type(screen.getByLabelText(/^Confirm new password/), confirm);
  await actor.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('profile forms', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });

  describe('ChangePasswordForm', () => {
    it('shows the mismatch error and makes no call when the new passwords differ', async () => {
      signIn(MEMBER);
      renderWithProviders(<ChangePasswordForm />);
      await fillPasswords('old-password', 'new-password-1', 'new-password-2');

      expect(screen.getByTestId('form-error')).toHaveTextContent('Passwords do not match');
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it("says 'User not logged in' and makes no call without a user", async () => {
      useAuthStore.setState({ user: null, token: 't1', loading: false });
      renderWithProviders(<ChangePasswordForm />);
      await fillPasswords('old-password', 'new-password-1', 'new-password-1');

      expect(screen.getByTestId('form-error')).toHaveTextContent('User not logged in');
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it("changes the current user's password and keeps the session on the new token", async () => {
      signIn(MEMBER, 'old-token');
      fetchMock.mockResolvedValue(jsonResponse(200, { success: true, message: 'Password changed', token: 'new-token' }));
      renderWithProviders(<ChangePasswordForm />);
      await fillPasswords('old-password', 'new-password-1', 'new-password-1');

      await vi.waitFor(() => expect(useAuthStore.getState().token).toBe('new-token'));
      const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
      expect(url).toBe(`/api/users/${MEMBER.id}/change-password`);
      expect(JSON.parse(String(init.body))).toEqual({ currentPassword: 'old-password', newPassword: 'new-password-1' });
      expect(localStorage.getItem('token')).toBe('new-token');
      expect(await screen.findByText('Password changed')).toBeInTheDocument();
    });

    it('shows a wrong current password on the form without ending the session', async () => {
      signIn(MEMBER, 'old-token');
      fetchMock.mockResolvedValue(
        jsonResponse(400, { success: false, message: 'Current password is incorrect', code: 'users.currentPasswordWrong' }),
      );
      renderWithProviders(<ChangePasswordForm />);
      await fillPasswords('bad-password', 'new-password-1', 'new-password-1');

      expect(await screen.findByTestId('form-error')).toHaveTextContent('Current password is incorrect');
      expect(useAuthStore.getState().token).toBe('old-token');
    });
  });

  describe('ProfileInfoForm', () => {
    it('requires a username and makes no call without one', async () => {
      signIn(MEMBER);
      renderWithProviders(<ProfileInfoForm />);
      await user().clear(screen.getByRole('textbox', { name: /Username/ }));
      await user().click(screen.getByRole('button', { name: 'Save' }));

      expect(screen.getByText('Username is required')).toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it("says 'User not logged in' and makes no call without a user", async () => {
      useAuthStore.setState({ user: null, token: 't1', loading: false });
      renderWithProviders(<ProfileInfoForm />);
      await user().type(screen.getByRole('textbox', { name: /Username/ }), 'someone');
      await user().click(screen.getByRole('button', { name: 'Save' }));

      expect(screen.getByTestId('form-error')).toHaveTextContent('User not logged in');
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('saves username and optional email with the current user id and updates the session user', async () => {
      signIn(MEMBER);
      const renamed = { ...MEMBER, username: 'bobby', email: 'bobby@example.com' };
      fetchMock.mockResolvedValue(jsonResponse(200, { success: true, message: 'User updated', user: renamed }));
      renderWithProviders(<ProfileInfoForm />);
      const name = screen.getByRole('textbox', { name: /Username/ });
      await user().clear(name);
      await user().type(name, 'bobby');
      await user().type(screen.getByRole('textbox', { name: /Email/ }), 'bobby@example.com');
      await user().click(screen.getByRole('button', { name: 'Save' }));

      await vi.waitFor(() => expect(useAuthStore.getState().user?.username).toBe('bobby'));
      const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
      expect(url).toBe(`/api/users/${MEMBER.id}`);
      expect(init.method).toBe('PUT');
      expect(JSON.parse(String(init.body))).toEqual({ username: 'bobby', email: 'bobby@example.com' });
      expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(renamed);
    });
  });
});

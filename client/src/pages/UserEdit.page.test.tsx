import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import UserEditPage from './UserEdit.page';

function renderEdit(id: number | string) {
  return renderWithProviders(
    <Routes>
      <Route path="/users/:id" element={<UserEditPage />} />
      <Route path="/users" element={<div>users list</div>} />
    </Routes>,
    { route: `/users/${id}` },
  );
}

const putBody = (fetchMock: ReturnType<typeof vi.fn>) => {
  const call = fetchMock.mock.calls.find(([, init]) => (init as RequestInit).method === 'PUT');
  return call ? (JSON.parse(String((call[1] as RequestInit).body)) as Record<string, unknown>) : undefined;
};

describe('UserEditPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    signIn(ADMIN);
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      const id = Number(url.split('/').pop());
      const user = id === ADMIN.id ? ADMIN : MEMBER;
      if (init.method === 'PUT') return Promise.resolve(jsonResponse(200, { success: true, message: 'User updated', user }));
      if (id === 99) return Promise.resolve(jsonResponse(404, { success: false, message: 'User does not exist', code: 'users.notFound' }));
      return Promise.resolve(jsonResponse(200, { success: true, user }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it("sends the admin's password reset and leaves an unchanged role out", async () => {
    renderEdit(MEMBER.id);
    const actor = userEvent.setup({ delay: null });
    await actor.type(await screen.findByLabelText(/^New password/), 'reset-password-1');
    await actor.type(screen.getByRole('textbox', { name: /Email/ }), 'bob@example.com');
    await actor.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('users list')).toBeInTheDocument();
    expect(putBody(fetchMock)).toEqual({ username: 'bob', email: 'bob@example.com', password: 'reset-password-1' });
  });

  it('keeps the current password when the new-password field stays empty', async () => {
    renderEdit(MEMBER.id);
    await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('users list')).toBeInTheDocument();
    expect(putBody(fetchMock)).toEqual({ username: 'bob', email: null });
  });

  it('offers the viewer role with what it may do, and sends it', async () => {
    renderEdit(MEMBER.id);
    const actor = userEvent.setup({ delay: null });
    expect(await screen.findByText(/Creates and changes monitors/)).toBeInTheDocument();
    await actor.click(screen.getByTestId('user-role-select'));
    await actor.click(await screen.findByRole('option', { name: 'Viewer' }));
    expect(screen.getByText(/changes nothing but their own profile/)).toBeInTheDocument();
    await actor.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('users list')).toBeInTheDocument();
    expect(putBody(fetchMock)).toMatchObject({ role: 'viewer' });
  });

  it("does not offer role or password changes on the admin's own account", async () => {
    renderEdit(ADMIN.id);
    expect(await screen.findByText(/change your password on the profile page/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
    expect(screen.getByTestId('user-role-select')).toBeDisabled();
  });

  it('says so when the user does not exist', async () => {
    renderEdit(99);
    expect(await screen.findByTestId('error-state')).toHaveTextContent('User does not exist');
  });

  it('shows the not-found page for an id that is not a number', async () => {
    renderEdit('abc');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

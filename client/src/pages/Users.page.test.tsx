import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useUsersStore } from '../features/users/store';
import { useRealtimeStore } from '../realtime/store';
import { ADMIN, jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import UsersPage from './Users.page';

describe('UsersPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let allowRegistration: boolean;

  beforeEach(() => {
    signIn(ADMIN);
    allowRegistration = false;
    useUsersStore.setState({ users: [], total: 0, page: 1, status: 'idle', error: null });
    useRealtimeStore.setState({ status: 'connected' });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url.startsWith('/api/users?')) {
        return Promise.resolve(jsonResponse(200, { success: true, users: [ADMIN, MEMBER], total: 2, page: 1, pageSize: 50 }));
      }
      if (url === '/api/settings' && init.method === 'PUT') {
        allowRegistration = (JSON.parse(String(init.body)) as { allowRegistration: boolean }).allowRegistration;
      }
      if (url === '/api/settings') return Promise.resolve(jsonResponse(200, { success: true, settings: { allowRegistration } }));
      if (url.startsWith('/api/users/') && init.method === 'DELETE') {
        return Promise.resolve(jsonResponse(200, { success: true, message: 'User deleted' }));
      }
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const deleteCalls = () => fetchMock.mock.calls.filter(([, init]) => (init as RequestInit).method === 'DELETE');

  it('lists id, username, email or "-", role and actions for each user', async () => {
    renderWithProviders(<UsersPage />);

    const row = await screen.findByTestId(`users-row-${MEMBER.id}`);
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent(String(MEMBER.id));
    expect(cells[1]).toHaveTextContent('bob');
    expect(cells[2]).toHaveTextContent(/^-$/);
    expect(cells[3]).toHaveTextContent('User');
    expect(within(row).getByTestId(`users-edit-${MEMBER.id}`)).toHaveAttribute('href', `/users/${MEMBER.id}`);
    expect(within(screen.getByTestId(`users-row-${ADMIN.id}`)).getAllByRole('cell')[2]).toHaveTextContent('alice@example.com');
    expect(screen.getByTestId('users-create')).toHaveAttribute('href', '/users/create');
  });

  it('deletes only after confirmation', async () => {
    renderWithProviders(<UsersPage />);
    await userEvent.click(await screen.findByTestId(`users-delete-${MEMBER.id}`));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete user "bob"? This cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleteCalls()).toHaveLength(0);

    await userEvent.click(screen.getByTestId(`users-delete-${MEMBER.id}`));
    await userEvent.click(await screen.findByTestId('confirm-delete'));

    await vi.waitFor(() => expect(screen.queryByTestId(`users-row-${MEMBER.id}`)).not.toBeInTheDocument());
    expect(deleteCalls()[0][0]).toBe(`/api/users/${MEMBER.id}`);
  });

  it('does not offer deleting your own account', async () => {
    renderWithProviders(<UsersPage />);
    expect(await screen.findByTestId(`users-delete-${ADMIN.id}`)).toBeDisabled();
  });

  it('shows the fetch error with a retry when the list cannot be loaded', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(500, { success: false, message: 'boom' })));
    renderWithProviders(<UsersPage />);

    const error = await screen.findByTestId('error-state');
    expect(error).toHaveTextContent('boom');
    expect(within(error).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('switches self-registration on through the settings call', async () => {
    renderWithProviders(<UsersPage />);
    const toggle = await screen.findByTestId('registration-toggle');
    await vi.waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).not.toBeChecked();

    await userEvent.click(toggle);

    await vi.waitFor(() => expect(toggle).toBeChecked());
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/settings' && (init as RequestInit).method === 'PUT');
    expect(JSON.parse(String((put?.[1] as RequestInit).body))).toEqual({ allowRegistration: true });
  });

  it('moves the registration switch back when the server refuses the change', async () => {
    fetchMock.mockImplementation((url: string, init: RequestInit) => {
      if (url === '/api/settings' && init.method === 'PUT') {
        return Promise.resolve(
          jsonResponse(403, { success: false, message: 'You do not have permission to do this', code: 'auth.forbidden' }),
        );
      }
      if (url === '/api/settings') return Promise.resolve(jsonResponse(200, { success: true, settings: { allowRegistration: false } }));
      return Promise.resolve(jsonResponse(200, { success: true, users: [ADMIN], total: 1, page: 1, pageSize: 50 }));
    });
    renderWithProviders(<UsersPage />);
    const toggle = await screen.findByTestId('registration-toggle');
    await vi.waitFor(() => expect(toggle).toBeEnabled());

    await userEvent.click(toggle);

    expect(await screen.findByText('You do not have permission to do this')).toBeInTheDocument();
    await vi.waitFor(() => expect(toggle).not.toBeChecked());
  });

  it('follows live changes without a reload', async () => {
    renderWithProviders(<UsersPage />);
    await screen.findByTestId(`users-row-${MEMBER.id}`);

    act(() => useUsersStore.getState().applyChange({ action: 'created', user: { ...MEMBER, id: 3, username: 'carol' } }));
    expect(screen.getByTestId('users-row-3')).toHaveTextContent('carol');

    act(() => useUsersStore.getState().applyChange({ action: 'deleted', user: MEMBER }));
    expect(screen.queryByTestId(`users-row-${MEMBER.id}`)).not.toBeInTheDocument();
  });
});

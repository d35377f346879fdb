import type { UserDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, jsonResponse, MEMBER } from '../../test/render';
import { USERS_PAGE_SIZE, useUsersStore } from './store';

const makeUser = (id: number): UserDto => ({ ...MEMBER, id, username: `user${id}` });

describe('users store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    useUsersStore.setState({ users: [], total: 0, page: 1, status: 'idle', error: null });
  });

  it('loads one page with the page size in the query', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, users: [ADMIN, MEMBER], total: 2, page: 1, pageSize: USERS_PAGE_SIZE }));
    await useUsersStore.getState().load(1);
    expect(fetchMock.mock.calls[0][0]).toBe(`/api/users?page=1&pageSize=${USERS_PAGE_SIZE}`);
    expect(useUsersStore.getState()).toMatchObject({ status: 'ready', total: 2, users: [ADMIN, MEMBER] });
  });

  it('records a failed load as an error state', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { success: false, message: 'Internal server error', code: 'request.internalError' }));
    await useUsersStore.getState().load(1);
    expect(useUsersStore.getState().status).toBe('error');
  });

  it('keeps the rows on screen when a background refresh fails', async () => {
    useUsersStore.setState({ users: [ADMIN], total: 1, status: 'ready' });
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await useUsersStore.getState().load(1, { quiet: true });
    expect(useUsersStore.getState()).toMatchObject({ status: 'ready', users: [ADMIN] });
  });

  it('counts a deleted user once even when the push arrives before the answer', async () => {
    useUsersStore.setState({ users: [ADMIN, MEMBER], total: 2, status: 'ready' });
    fetchMock.mockImplementation(async () => {
      useUsersStore.getState().applyChange({ action: 'deleted', user: MEMBER });
      return jsonResponse(200, { success: true, message: 'User deleted' });
    });
    await useUsersStore.getState().remove(MEMBER.id);
    expect(useUsersStore.getState()).toMatchObject({ users: [ADMIN], total: 1 });
  });

  it('adds a created user to the table only when the last page has room', () => {
    const fullPage = Array.from({ length: USERS_PAGE_SIZE }, (_, index) => makeUser(index + 1));
    useUsersStore.setState({ users: fullPage, total: USERS_PAGE_SIZE, page: 1, status: 'ready' });
    useUsersStore.getState().applyChange({ action: 'created', user: makeUser(USERS_PAGE_SIZE + 1) });
    expect(useUsersStore.getState().users).toHaveLength(USERS_PAGE_SIZE);
    expect(useUsersStore.getState().total).toBe(USERS_PAGE_SIZE + 1);
  });

  it('ignores a created push for a user already listed', () => {
    useUsersStore.setState({ users: [ADMIN], total: 1, status: 'ready' });
    useUsersStore.getState().applyChange({ action: 'created', user: ADMIN });
    expect(useUsersStore.getState()).toMatchObject({ users: [ADMIN], total: 1 });
  });
});

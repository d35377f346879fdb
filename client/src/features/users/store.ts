import type { UserDto, UsersChangedEvent } from '@vigil/proto';
import { create } from 'zustand';
import { usersApi } from './api';

/** Rows shown per page of the user table (the server allows up to 500). */
export const USERS_PAGE_SIZE = 50;

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface UsersState {
  users: UserDto[];
  total: number;
  page: number;
  status: LoadStatus;
  error: unknown;
  /** Loads one page; `quiet` keeps the current rows on screen while refreshing in the background. */
  load: (page?: number, options?: { quiet?: boolean }) => Promise<void>;
  remove: (id: number) => Promise<void>;
  /** Applies a live `users.changed` push so the table follows changes made elsewhere. */
  applyChange: (event: UsersChangedEvent) => void;
}

/** The admin's user table: one page of users, the total and its load state. */
export const useUsersStore = create<UsersState>()((set, get) => ({
  users: [],
  total: 0,
  page: 1,
  status: 'idle',
  error: null,
  async load(page = get().page, { quiet = false } = {}) {
    if (!quiet) set({ status: 'loading', error: null, page });
    try {
      const response = await usersApi.list(page, USERS_PAGE_SIZE);
      const users = response.users ?? [];
      const total = response.total ?? users.length;
      // A page emptied by deletions elsewhere falls back to the last page that still has rows.
      const lastPage = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
      if (users.length === 0 && page > lastPage) return get().load(lastPage, { quiet });
      set({ users, total, page, status: 'ready', error: null });
    } catch (error) {
      if (!quiet || get().status !== 'ready') set({ status: 'error', error });
    }
  },
  async remove(id) {
    await usersApi.remove(id);
    // The push may have removed the row already; count it once either way.
    const { users, total } = get();
    if (users.some((user) => user.id === id)) set({ users: users.filter((user) => user.id !== id), total: Math.max(0, total - 1) });
  },
  applyChange({ action, user }) {
    const { users, total, page, status } = get();
    if (status !== 'ready') return;
    const present = users.some((row) => row.id === user.id);
    if (action === 'updated') {
      if (present) set({ users: users.map((row) => (row.id === user.id ? user : row)) });
      return;
    }
    if (action === 'deleted') {
      if (present) set({ users: users.filter((row) => row.id !== user.id), total: Math.max(0, total - 1) });
      return;
    }
    if (present) return;
    // Rows are ordered by id, so a new account belongs at the end of the last page.
    const onLastPage = page >= Math.ceil(total / USERS_PAGE_SIZE);
    const fits = users.length < USERS_PAGE_SIZE;
    set({ users: onLastPage && fits ? [...users, user] : users, total: total + 1 });
  },
}));

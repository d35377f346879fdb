import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render, type RenderResult } from '@testing-library/react';
import type { UserDto } from '@vigil/proto';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { useAuthStore } from '../features/auth/store';
import i18n from '../i18n';
import { theme } from '../app/theme';

/** Renders the current path, so tests can see where a redirect went. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** Renders inside Mantine (test env: no transitions or portals delays), a memory router and English texts. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}): RenderResult {
  void i18n.changeLanguage('en-US');
  return render(
    <MantineProvider theme={theme} env="test">
      <Notifications />
      <MemoryRouter initialEntries={[route]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </MantineProvider>,
  );
}

export const ADMIN: UserDto = {
  id: 1,
  username: 'alice',
  email: 'alice@example.com',
  role: 'admin',
  created_at: '2025-01-01T00:00:00.000Z',
};
export const MEMBER: UserDto = { id: 2, username: 'bob', email: null, role: 'user', created_at: '2025-01-02T00:00:00.000Z' };
/** The read-only role: sees what a user sees, is offered no change. */
export const VIEWER: UserDto = { id: 3, username: 'carol', email: null, role: 'viewer', created_at: '2025-01-03T00:00:00.000Z' };

/** Puts the auth store in a settled state, as if startup restoration had finished. */
export function signIn(user: UserDto | null, token: string | null = user ? 'token-1' : null): void {
  useAuthStore.setState({ user, token, loading: false });
}

export function signOut(): void {
  useAuthStore.setState({ user: null, token: null, loading: false });
}

/** A JSON answer as the server sends it, for `fetch` stubs. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

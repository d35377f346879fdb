import { screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../features/auth/store';
import { ADMIN, jsonResponse, MEMBER, renderWithProviders, signIn, signOut, VIEWER } from '../test/render';
import { agentsPage, makeAgent } from '../test/agents';
import { incidentsPage } from '../test/incidents';
import { maintenancePage } from '../test/maintenance';
import { monitorsPage } from '../test/monitors';
import { makeNotifications } from '../test/notifications';
import { makeDashboardSummary, makeStatusData } from '../test/status';
import { AppRoutes } from './AppRoutes';

function answer(url: string) {
  if (url.startsWith('/api/monitors?')) return jsonResponse(200, monitorsPage([]));
  if (url.startsWith('/api/agents?')) return jsonResponse(200, agentsPage([]));
  if (url === '/api/agents/token/generate')
    return jsonResponse(200, {
      success: true,
      token: 'vgr_t',
      token_id: 1,
      expires_at: '2025-03-03T00:00:00Z',
      server_url: null,
      message: 'ok',
    });
  if (url === '/api/agents/5') return jsonResponse(200, { success: true, agent: makeAgent({ id: 5 }) });
  if (url.startsWith('/api/users')) return jsonResponse(200, { success: true, users: [ADMIN, MEMBER], total: 2, page: 1, pageSize: 50 });
  if (url === '/api/settings') return jsonResponse(200, { success: true, settings: { allowRegistration: false } });
  if (url === '/api/status/config') return jsonResponse(200, { success: true, config: { ...makeStatusData(), monitors: [], agents: [] } });
  if (url === '/api/notifications') return jsonResponse(200, makeNotifications());
  if (url === '/api/dashboard') return jsonResponse(200, { success: true, dashboard: makeDashboardSummary() });
  if (url === '/api/auth/status') return jsonResponse(200, { success: true, needsSetup: false, allowRegistration: true });
  if (url.startsWith('/api/incidents?')) return jsonResponse(200, incidentsPage([]));
  if (url.startsWith('/api/maintenance?')) return jsonResponse(200, maintenancePage([]));
  if (url === '/api/status-pages') return jsonResponse(200, { success: true, pages: [] });
  return jsonResponse(404, { success: false, message: 'Not found', code: 'request.notFound' });
}

describe('routes and guards', () => {
  beforeAll(async () => {
    // Every screen is split off: compiled once up front, so the cases' waits measure routing, not the first transform.
    const screens = import.meta.glob(['../pages/*.page.tsx', '!../pages/*.test.tsx']);
    await Promise.all([...Object.values(screens).map((load) => load()), import('../app/styles/screens')]);
  }, 120_000);

  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => Promise.resolve(answer(url))),
    );
  });

  it('shows a loading text while authentication is being resolved', () => {
    useAuthStore.setState({ user: null, token: 't1', loading: true });
    renderWithProviders(<AppRoutes />, { route: '/dashboard' });

    expect(screen.getByTestId('auth-loading')).toHaveTextContent('Loading...');
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  it.each([
    '/dashboard',
    '/profile',
    '/users',
    '/users/create',
    '/users/7',
    '/monitors',
    '/agents',
    '/agents/create',
    '/agents/3',
    '/agents/edit/3',
    '/notifications',
    '/status/config',
    '/status-pages',
    '/status-pages/shop/edit',
    '/incidents',
    '/incidents/4',
    '/maintenance',
  ])('sends a visitor who opens %s to /login', async (route) => {
    signOut();
    renderWithProviders(<AppRoutes />, { route });

    // Navigation waits for the split-off sign-in screen before the address changes (react-router's transitions).
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(await screen.findByRole('button', { name: 'Login' })).toHaveAttribute('type', 'submit');
  });

  it.each(['/users', '/users/create', '/users/1'])('sends a signed-in non-admin who opens %s to /dashboard', async (route) => {
    signIn(MEMBER);
    renderWithProviders(<AppRoutes />, { route });

    expect(await screen.findByTestId('dashboard-title')).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/);
  });

  it('lets an admin open user management', async () => {
    signIn(ADMIN);
    renderWithProviders(<AppRoutes />, { route: '/users' });

    expect(await screen.findByTestId('users-table')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/users$/);
  });

  it('keeps the public pages open to visitors', async () => {
    signOut();
    renderWithProviders(<AppRoutes />, { route: '/register' });

    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/register$/);
  });

  it.each([
    ['/monitors', 'monitors-empty'],
    ['/monitors/create', 'monitor-form'],
    ['/monitors/edit/7', 'monitor-missing'],
    ['/monitors/7', 'monitor-missing'],
    ['/monitors/abc', 'monitor-missing'],
  ])('lets a member open the monitor screen %s', async (route, testId) => {
    signIn(MEMBER);
    renderWithProviders(<AppRoutes />, { route });
    expect(await screen.findByTestId(testId)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(route);
  });

  it('shows the not-found page with a way home for an unknown path', async () => {
    signOut();
    renderWithProviders(<AppRoutes />, { route: '/no/such/page' });

    const page = await screen.findByTestId('not-found');
    expect(page).toHaveTextContent('Page Not Found');
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  it.each([
    ['/agents', 'agents-empty'],
    ['/agents/create', 'agent-create-page'],
    ['/agents/edit/5', 'agent-edit-form'],
    ['/agents/edit/7', 'agent-not-found'],
    ['/agents/5', 'agent-detail'],
    ['/agents/7', 'agent-not-found'],
    ['/agents/abc', 'agent-not-found'],
  ])('lets a member open the agent screen %s', async (route, testId) => {
    signIn(MEMBER);
    renderWithProviders(<AppRoutes />, { route });
    expect(await screen.findByTestId(testId)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(route);
  });

  it('lets a member open the status page configuration', async () => {
    signIn(MEMBER);
    renderWithProviders(<AppRoutes />, { route: '/status/config' });
    expect(await screen.findByTestId('status-config-tab-general')).toBeInTheDocument();
  });

  it('lets a member open the notification configuration', async () => {
    signIn(MEMBER);
    renderWithProviders(<AppRoutes />, { route: '/notifications' });

    expect(await screen.findByTestId('notifications-tab-global')).toBeInTheDocument();
    expect(screen.queryByTestId('not-found')).not.toBeInTheDocument();
  });

  it('sends the home page get-started button to the dashboard for members and to login for visitors', async () => {
    signIn(MEMBER);
    const { unmount } = renderWithProviders(<AppRoutes />, { route: '/' });
    expect(await screen.findByTestId('get-started')).toHaveAttribute('href', '/dashboard');
    unmount();

    signOut();
    renderWithProviders(<AppRoutes />, { route: '/' });
    expect(await screen.findByTestId('get-started')).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: /Learn more/ })).toHaveAttribute('target', '_blank');
  });

  it.each([
    ['/monitors/create', '/monitors', 'monitors-empty'],
    ['/monitors/edit/3', '/monitors', 'monitors-empty'],
    ['/agents/create', '/agents', 'agents-empty'],
    ['/agents/edit/5', '/agents', 'agents-empty'],
    ['/status-pages/new', '/status-pages', 'status-pages-empty'],
    ['/status-pages/shop/edit', '/status-pages', 'status-pages-empty'],
    ['/incidents/create', '/incidents', 'incidents-empty'],
    ['/incidents/4/edit', '/incidents', 'incidents-empty'],
    ['/maintenance/create', '/maintenance', 'maintenance-empty'],
    ['/maintenance/2/edit', '/maintenance', 'maintenance-empty'],
  ])('sends a viewer who opens the form %s to the list %s, which offers no create', async (route, list, testId) => {
    signIn(VIEWER);
    renderWithProviders(<AppRoutes />, { route });
    expect(await screen.findByTestId(testId)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^${list}$`));
    expect(screen.queryByRole('link', { name: /Add|Create/ })).not.toBeInTheDocument();
  });
});

import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useWallStore } from '../features/wall/store';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { ADMIN, jsonResponse, renderWithProviders, signIn, signOut } from '../test/render';
import { makeChange, makePublicAgent, makePublicMonitor, makeWallData } from '../test/status';
import { AppRoutes } from '../routes/AppRoutes';

describe('WallPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let answer: () => Response;

  beforeEach(() => {
    signOut();
    useRealtimeStore.setState({ status: 'connected' });
    useWallStore.getState().open(null);
    const data = makeWallData({
      monitors: [
        makePublicMonitor({ id: 1, name: 'api', status: 'down' }),
        makePublicMonitor({ id: 2, name: 'web', type: 'tls', certificate_days: 12 }),
        makePublicMonitor({ id: 3, name: 'zeta' }),
      ],
      agents: [makePublicAgent({ id: 7, name: 'db' })],
      recent_changes: [makeChange({ id: 1, name: 'api', status: 'down' })],
    });
    answer = () => jsonResponse(200, { success: true, data });
    fetchMock = vi.fn((url: string) =>
      Promise.resolve(url === '/api/wall/data' ? answer() : jsonResponse(404, { success: false, message: 'Not found' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
      width: 1200,
      height: 700,
      top: 0,
      left: 0,
      right: 1200,
      bottom: 700,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
  });
  afterEach(() => useWallStore.getState().open(null));

  const tileOrder = () =>
    [...screen.getByTestId('wall-board').querySelectorAll('[data-testid^="wall-"][data-status]')].map((tile) =>
      tile.getAttribute('data-testid'),
    );

  it('opens with a display key, without signing in and without the session token, problems first', async () => {
    signIn(ADMIN);
    localStorage.setItem('token', 'token-1');
    renderWithProviders(<AppRoutes />, { route: '/wall?key=vgd_secret' });
    await screen.findByTestId('wall-monitor-1');
    const [url, init] = fetchMock.mock.calls.find(([called]) => called === '/api/wall/data') as [string, RequestInit];
    expect(url).toBe('/api/wall/data');
    expect(init.headers).toMatchObject({ 'X-Display-Key': 'vgd_secret' });
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(tileOrder()).toEqual(['wall-monitor-1', 'wall-monitor-2', 'wall-monitor-3', 'wall-agent-7']);
    expect(screen.getByTestId('wall-board')).toHaveAttribute('data-level', 'full');
    expect(screen.getByTestId('wall-overall')).toHaveTextContent('1 of 4 need attention');
    expect(screen.getByTestId('wall-connection')).toHaveTextContent('Live');
    expect(screen.getByTestId('wall-clock')).toBeInTheDocument();
    expect(within(screen.getByTestId('wall-feed')).getAllByTestId('wall-feed-entry')).toHaveLength(1);
    expect(Object.values(localStorage).some((value) => String(value).includes('vgd_secret'))).toBe(false);
  });

  it("marks each monitor tile with its type's icon and shows the certificate's days", async () => {
    signIn(ADMIN);
    renderWithProviders(<AppRoutes />, { route: '/wall' });
    const tls = await screen.findByTestId('wall-monitor-2');
    expect(within(tls).getByLabelText('TLS certificate')).toBeInTheDocument();
    expect(tls).toHaveTextContent('Cert 12 d');
    expect(within(screen.getByTestId('wall-monitor-3')).getByLabelText('Monitor')).toBeInTheDocument();
    expect(screen.getByTestId('wall-monitor-3')).not.toHaveTextContent('Cert');
  });

  it('moves an item that goes down to the front and puts the change on top of the feed, live', async () => {
    renderWithProviders(<AppRoutes />, { route: '/wall?key=vgd_secret' });
    await screen.findByTestId('wall-monitor-3');
    act(() =>
      pushHandlers('display')['wall.change'](
        makeChange({ kind: 'monitor', id: 3, name: 'zeta', previous: 'up', status: 'down', at: '2025-03-01T11:00:00.000Z' }),
      ),
    );
    expect(tileOrder()).toEqual(['wall-monitor-1', 'wall-monitor-3', 'wall-monitor-2', 'wall-agent-7']);
    expect(screen.getByTestId('wall-monitor-3')).toHaveAttribute('data-status', 'down');
    const entries = screen.getAllByTestId('wall-feed-entry');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent('zeta');
    expect(entries[0]).toHaveTextContent('Up → Down');
    expect(screen.getByTestId('wall-overall')).toHaveAttribute('data-overall', 'outage');
  });

  it('tells on a tile how many of its locations fail, live, and an older push does not undo a newer read', async () => {
    answer = () =>
      jsonResponse(200, {
        success: true,
        data: makeWallData({
          monitors: [
            makePublicMonitor({ id: 1, name: 'api', status: 'down', locations_failing: 2, locations_total: 3 }),
            makePublicMonitor({ id: 2, name: 'web', locations_failing: 0, locations_total: 2 }),
          ],
          agents: [],
        }),
      });
    renderWithProviders(<AppRoutes />, { route: '/wall?key=vgd_secret' });
    const api = await screen.findByTestId('wall-monitor-1');
    expect(api).toHaveTextContent('2/3 locations failing');
    expect(api).toHaveAttribute('title', expect.stringContaining('2/3 locations failing'));
    expect(screen.getByTestId('wall-monitor-2')).not.toHaveTextContent('locations failing');

    const push = (monitor_id: number, locations_failing: number, at: string) =>
      act(() => pushHandlers('display')['wall.locations']({ monitor_id, locations_failing, locations_total: 2, at }));
    push(2, 1, '2025-03-01T10:01:00.000Z');
    expect(screen.getByTestId('wall-monitor-2')).toHaveTextContent('1/2 locations failing');
    push(2, 0, '2025-03-01T10:02:00.000Z');
    expect(screen.getByTestId('wall-monitor-2')).not.toHaveTextContent('locations failing');
    // Dated before the wall's read (10:00): what the read said stands.
    push(1, 0, '2025-03-01T09:59:00.000Z');
    expect(screen.getByTestId('wall-monitor-1')).toHaveTextContent('2/3 locations failing');
  });

  it('says full screen that a refused display link is invalid', async () => {
    answer = () => jsonResponse(401, { success: false, message: 'This display link is invalid or was revoked', code: 'wall.keyInvalid' });
    renderWithProviders(<AppRoutes />, { route: '/wall?key=vgd_wrong' });
    expect(await screen.findByTestId('wall-invalid')).toHaveTextContent('This display link is invalid or was revoked');
    expect(screen.queryByTestId('wall')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/wall$/);
  });

  it('opens for a signed-in user without a key, with the session token', async () => {
    signIn(ADMIN);
    localStorage.setItem('token', 'token-1');
    renderWithProviders(<AppRoutes />, { route: '/wall' });
    await screen.findByTestId('wall-monitor-1');
    const [, init] = fetchMock.mock.calls.find(([called]) => called === '/api/wall/data') as [string, RequestInit];
    expect(init.headers).toMatchObject({ Authorization: 'Bearer token-1' });
  });

  it('sends a visitor without a key to the login page', async () => {
    renderWithProviders(<AppRoutes />, { route: '/wall' });
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/login$/);
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/wall/data')).toBe(false);
  });

  it('shrinks thousands of items to coloured squares that fit the screen', async () => {
    const monitors = Array.from({ length: 3000 }, (_, index) => makePublicMonitor({ id: index + 1, name: `m${index}` }));
    answer = () => jsonResponse(200, { success: true, data: makeWallData({ monitors, agents: [] }) });
    renderWithProviders(<AppRoutes />, { route: '/wall?key=vgd_secret' });
    await screen.findByTestId('wall-monitor-3000');
    const board = screen.getByTestId('wall-board');
    expect(board).toHaveAttribute('data-level', 'dot');
    expect(Number(board.getAttribute('data-columns')) * Number(board.getAttribute('data-rows'))).toBeGreaterThanOrEqual(3000);
    expect(screen.getByTestId('wall-monitor-1').textContent).toBe('');
  });
});

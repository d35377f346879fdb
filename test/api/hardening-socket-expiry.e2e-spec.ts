import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, MonitorsChangedEvent, ServerToClientEvents } from '@vigil/proto';
import { login, registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Sign-in tokens of this server live 3 s. */
const LIFETIME_MS = 3_000;

describe('hardening: a browser socket ends with its token (issue 27, finding 6)', () => {
  let app: TestApp;
  let admin: Session;
  const sockets: BrowserSocket[] = [];

  function open(token?: string): Promise<BrowserSocket> {
    const socket: BrowserSocket = io(app.url, {
      auth: token ? { token } : {},
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  /** A fresh session: every token of this server expires within seconds. */
  const fresh = () => login(app.url, admin.user.username, admin.password);

  beforeAll(async () => {
    app = await startTestApp({ env: { JWT_EXPIRES_IN: '3s' } });
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
  });

  it('tells a signed-in socket its session expired and disconnects it when its token expires, not before', async () => {
    const session = await fresh();
    const signedIn = Date.now();
    const socket = await open(session.token);
    expect((await socket.timeout(5000).emitWithAck('subscribe', 'monitors')).ok).toBe(true);
    const pushes: MonitorsChangedEvent[] = [];
    socket.on('monitors.changed', (event) => pushes.push(event));
    const told = new Promise<{ code?: string; at: number }>((resolve) =>
      socket.on('auth.error', ({ code }) => resolve({ code, at: Date.now() })),
    );
    const closed = new Promise<{ reason: string; at: number }>((resolve) =>
      socket.on('disconnect', (reason) => resolve({ reason, at: Date.now() })),
    );

    // Still a live socket while the token holds: it receives pushes.
    await request(app.url).post('/api/monitors').set(session.auth).send({ name: 'before expiry', type: 'push' }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pushes.map((event) => event.monitor.name)).toEqual(['before expiry']);

    const deadline = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('socket outlived its token')), LIFETIME_MS + 3_000),
    );
    const [error, disconnect] = await Promise.race([Promise.all([told, closed]), deadline]);
    expect(error.code).toBe('auth.tokenInvalid');
    expect(disconnect.reason).toBe('io server disconnect');
    // JWT expiry has whole-second precision: the token ends between 2 and 3 s after sign-in.
    expect(disconnect.at - signedIn).toBeGreaterThanOrEqual(LIFETIME_MS - 1_000);

    // Nothing reaches it afterwards.
    await request(app.url)
      .post('/api/monitors')
      .set((await fresh()).auth)
      .send({ name: 'after expiry', type: 'push' })
      .expect(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pushes.map((event) => event.monitor.name)).toEqual(['before expiry']);
  });

  it('keeps an anonymous socket, which has no token to expire', async () => {
    const socket = await open();
    expect((await socket.timeout(5000).emitWithAck('subscribe', 'status')).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, LIFETIME_MS + 1_000));
    expect(socket.connected).toBe(true);
  });

  it('refuses an expired token at the handshake', async () => {
    const session = await fresh();
    await new Promise((resolve) => setTimeout(resolve, LIFETIME_MS + 1_000));
    await expect(open(session.token)).rejects.toThrow(/session has expired/);
  });
});

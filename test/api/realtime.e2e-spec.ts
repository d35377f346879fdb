import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SubscribeResult, UsersChangedEvent } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session, userInput } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

describe('live gateway', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  const sockets: BrowserSocket[] = [];

  function open(token?: string): BrowserSocket {
    const socket: BrowserSocket = io(app.url, {
      auth: token ? { token } : {},
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    return socket;
  }

  function connected(socket: BrowserSocket): Promise<void> {
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  }

  function subscribe(socket: BrowserSocket, room: string): Promise<SubscribeResult> {
    return socket.timeout(5000).emitWithAck('subscribe', room as never);
  }

  /** Collects `users.changed` pushes so a test can wait for one or prove none came. */
  function recorder(socket: BrowserSocket) {
    const events: UsersChangedEvent[] = [];
    socket.on('users.changed', (event) => events.push(event));
    return {
      events,
      async waitFor(predicate: (event: UsersChangedEvent) => boolean): Promise<UsersChangedEvent> {
        for (let i = 0; i < 50; i += 1) {
          const found = events.find(predicate);
          if (found) return found;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`no matching users.changed push; got ${JSON.stringify(events)}`);
      },
    };
  }

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
  });

  it('refuses a socket with a bad token', async () => {
    const socket = open('not-a-real-token');
    await expect(connected(socket)).rejects.toThrow(/session has expired/);
    expect(socket.connected).toBe(false);
  });

  it('lets an anonymous socket join only the public status room', async () => {
    const socket = open();
    await connected(socket);
    expect(await subscribe(socket, 'status')).toEqual({ ok: true });
    for (const room of ['monitors', 'agents', 'monitor:1', 'admins']) {
      expect((await subscribe(socket, room)).ok).toBe(false);
    }
  });

  it('lets a signed-in socket join member rooms but never the admins room by request', async () => {
    const socket = open(member.token);
    await connected(socket);
    expect(await subscribe(socket, 'monitors')).toEqual({ ok: true });
    expect(await subscribe(socket, 'agent:3')).toEqual({ ok: true });
    expect((await subscribe(socket, 'admins')).ok).toBe(false);
  });

  it('pushes users.changed to admins, and only to admins, on create, update and delete', async () => {
    const adminSocket = open(admin.token);
    const memberSocket = open(member.token);
    const anonymous = open();
    await Promise.all([connected(adminSocket), connected(memberSocket), connected(anonymous)]);
    const toAdmin = recorder(adminSocket);
    const toMember = recorder(memberSocket);
    const toAnonymous = recorder(anonymous);

    const input = userInput();
    const { body } = await request(app.url).post('/api/users').set(admin.auth).send(input).expect(201);
    const created = await toAdmin.waitFor((e) => e.action === 'created' && e.user.id === body.user.id);
    expect(created.user).toEqual(body.user);

    await request(app.url).put(`/api/users/${body.user.id}`).set(admin.auth).send({ email: 'changed@example.test' }).expect(200);
    const updated = await toAdmin.waitFor((e) => e.action === 'updated' && e.user.id === body.user.id);
    expect(updated.user.email).toBe('changed@example.test');

    await request(app.url).delete(`/api/users/${body.user.id}`).set(admin.auth).expect(200);
    await toAdmin.waitFor((e) => e.action === 'deleted' && e.user.id === body.user.id);

    expect(toMember.events).toEqual([]);
    expect(toAnonymous.events).toEqual([]);
    expect(JSON.stringify(toAdmin.events)).not.toMatch(/password|hash/i);
  });

  it('disconnects the sockets of a deleted user', async () => {
    const doomed = await createUser(app.url, admin);
    const socket = open(doomed.token);
    await connected(socket);
    const told = new Promise<string>((resolve) => socket.on('auth.error', ({ message }) => resolve(message)));
    const closed = new Promise<void>((resolve) => socket.on('disconnect', () => resolve()));
    await request(app.url).delete(`/api/users/${doomed.user.id}`).set(admin.auth).expect(200);
    await expect(told).resolves.toMatch(/session has expired/);
    await closed;
  });
});

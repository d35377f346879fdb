import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { Client } from 'pg';
import request from 'supertest';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { freePort } from '../support/ports';
import { useTestRedis, type TestRedis } from '../support/redis';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The outbound rules (issue 27, findings 1–3) against the real server: every checker × loopback, unspecified,
 * IPv4-in-IPv6, a name resolving to loopback and link-local/metadata addresses × role, on the defaults; the
 * docs' recommended OUTBOUND_DENY against the unspecified addresses; and Vigil's own database, Redis and listener,
 * which no one may check. Only loopback ever receives a packet: refused targets are refused before any connection,
 * which a listener on every loopback address of one port counts.
 */

/** A TCP and UDP listener on `::` (IPv4 too) of one port, counting what reaches it. */
interface CountingListener {
  port: number;
  count(): number;
  close(): Promise<void>;
}

async function startCountingListener(): Promise<CountingListener> {
  const port = await freePort();
  let count = 0;
  const sockets = new Set<Socket>();
  const tcp: Server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => tcp.listen({ port, host: '::', ipv6Only: false }, resolve));
  const udp: UdpSocket = createSocket({ type: 'udp6', ipv6Only: false });
  udp.on('message', () => (count += 1));
  await new Promise<void>((resolve) => udp.bind(port, '::', resolve));
  return {
    port,
    count: () => count,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => tcp.close(resolve));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}

type Body = Record<string, unknown>;
const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** One monitor body per checker that connects somewhere, aimed at host:port. */
const CHECKERS: Record<string, (host: string, port: number) => Body> = {
  http: (host, port) => ({ type: 'http', url: `http://${urlHost(host)}:${port}/` }),
  websocket: (host, port) => ({ type: 'websocket', url: `ws://${urlHost(host)}:${port}/` }),
  tcp: (host, port) => ({ type: 'tcp', hostname: host, port }),
  tls: (host, port) => ({ type: 'tls', hostname: host, port }),
  grpc: (host, port) => ({ type: 'grpc', hostname: host, port }),
  postgres: (host, port) => ({ type: 'postgres', connectionString: `postgres://vigil@${urlHost(host)}:${port}/vigil` }),
  mysql: (host, port) => ({ type: 'mysql', connectionString: `mysql://vigil@${urlHost(host)}:${port}/vigil` }),
  redis: (host, port) => ({ type: 'redis', connectionString: `redis://${urlHost(host)}:${port}` }),
  dns: (host, port) => ({ type: 'dns', hostname: 'example.com', dnsServer: `${urlHost(host)}:${port}` }),
  ping: (host) => ({ type: 'ping', hostname: host }),
};

/** Addresses that reach this machine, each spelled another way. */
const LOOPBACK_LIKE = ['127.0.0.1', '127.0.0.2', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', 'localhost'];
const LINK_LOCAL = ['169.254.169.254', 'fd00:ec2::254'];

const table = (hosts: string[]) => Object.keys(CHECKERS).flatMap((type) => hosts.map((host) => [type, host] as const));

describe('outbound rules', () => {
  let listener: CountingListener;
  beforeAll(async () => {
    listener = await startCountingListener();
  });
  afterAll(() => listener?.close());

  describe('on the defaults, with the database and Redis on loopback', () => {
    let app: TestApp;
    let database: TestDatabase;
    let redis: TestRedis;
    let admin: Session;
    let member: Session;
    let db: Client;
    let own: { database: { host: string; port: number; name: string }; redis: { port: number } };
    const api = () => request(app.url);

    beforeAll(async () => {
      [database, redis] = await Promise.all([createTestDatabase('url'), useTestRedis()]);
      app = await startTestApp({ database, env: { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } });
      admin = await registerFirstAdmin(app.url);
      member = await createUser(app.url, admin);
      const url = new URL(database.url!);
      own = {
        database: { host: url.hostname, port: Number(url.port) || 5432, name: url.pathname.slice(1) },
        redis: { port: Number(new URL(redis.url).port) || 6379 },
      };
      db = new Client({ connectionString: database.url! });
      await db.connect();
    });
    afterAll(async () => {
      await db?.end();
      await app?.destroy();
      await redis?.cleanup();
    });

    const create = (session: Session, body: Body) =>
      api()
        .post('/api/monitors')
        .set(session.auth)
        .send({ name: `to ${JSON.stringify(body)}`.slice(0, 100), interval: 3600, retries: 0, ...body });

    it.each(table(LOOPBACK_LIKE))(
      'refuses a user’s %s monitor of %s under USER_OUTBOUND_DENY, before any connection',
      async (type, host) => {
        const before = listener.count();
        const { body } = await create(member, CHECKERS[type](host, listener.port)).expect(400);
        expect(body).toMatchObject({ success: false, code: 'monitors.targetUserDenied' });
        expect(body.message).toContain('USER_OUTBOUND_DENY');
        expect(listener.count()).toBe(before);
      },
    );

    it.each(table(LINK_LOCAL))('refuses a %s monitor of %s to users and admins under OUTBOUND_DENY', async (type, host) => {
      for (const session of [member, admin]) {
        const { body } = await create(session, CHECKERS[type](host, 80)).expect(400);
        expect(body).toMatchObject({ success: false, code: 'monitors.targetDenied' });
        expect(body.message).toContain('OUTBOUND_DENY');
      }
    });

    it('refuses a user’s test check of loopback with the rule’s name, and lets an admin’s reach it', async () => {
      const before = listener.count();
      const refused = await api()
        .post('/api/monitors/test')
        .set(member.auth)
        .send({ name: 't', ...CHECKERS.tcp('0.0.0.0', listener.port) })
        .expect(400);
      expect(refused.body).toMatchObject({ success: false, code: 'monitors.targetUserDenied' });
      expect(listener.count()).toBe(before);
      const { body } = await api()
        .post('/api/monitors/test')
        .set(admin.auth)
        .send({ name: 't', ...CHECKERS.tcp('127.0.0.1', listener.port) })
        .expect(200);
      expect(body.result).toMatchObject({ ok: true });
      expect(listener.count()).toBe(before + 1);
    });

    it('refuses every generated spelling of a loopback or unspecified address to users (property)', async () => {
      const byte = fc.integer({ min: 0, max: 255 });
      const hex = (value: number) => value.toString(16);
      const ipv4 = fc.tuple(fc.constantFrom(127, 0), byte, byte, byte);
      const spelling = fc.oneof(
        ipv4.map((parts) => parts.join('.')),
        ipv4.map((parts) => `::ffff:${parts.join('.')}`),
        ipv4.map(([a, b, c, d]) => `::ffff:${hex((a << 8) | b)}:${hex((c << 8) | d)}`),
        ipv4.map(([a, b, c, d]) => `0:0:0:0:0:FFFF:${hex((a << 8) | b).toUpperCase()}:${hex((c << 8) | d)}`),
        fc.constantFrom('::', '::1', '0:0:0:0:0:0:0:1', '0000::0001', 'localhost', 'LOCALHOST'),
      );
      const before = listener.count();
      await fc.assert(
        fc.asyncProperty(spelling, fc.constantFrom('http', 'tcp', 'redis'), async (host, type) => {
          const { status, body } = await create(member, CHECKERS[type](host, listener.port));
          expect({ host, type, status, code: body.code }).toEqual({ host, type, status: 400, code: 'monitors.targetUserDenied' });
        }),
        { numRuns: 150 },
      );
      expect(listener.count()).toBe(before);
    });

    const ownTargets = (): Array<[string, Body]> => {
      const hosts = ['127.0.0.1', 'localhost', '0.0.0.0', '::', '::ffff:127.0.0.1', '::1'];
      const { port } = new URL(app.url);
      return hosts.flatMap((host) => [
        [`the server at ${host}`, CHECKERS.http(host, Number(port))],
        [`the server's WebSocket at ${host}`, CHECKERS.websocket(host, Number(port))],
        [`the database at ${host}`, CHECKERS.postgres(host, own.database.port)],
        [`the database, as MySQL, at ${host}`, CHECKERS.mysql(host, own.database.port)],
        [`the database, as TCP, at ${host}`, CHECKERS.tcp(host, own.database.port)],
        [`Redis at ${host}`, CHECKERS.redis(host, own.redis.port)],
      ]);
    };

    it("refuses Vigil's own listener, database and Redis to admins and users, however the address is spelled", async () => {
      for (const [what, target] of ownTargets()) {
        for (const session of [admin, member]) {
          const { body } = await create(session, target);
          expect({ what, status: body.success, code: body.code }).toEqual({ what, status: false, code: 'monitors.targetOwnService' });
        }
      }
    });

    it('answers no server secret through a database check of its own database (the privilege escalation)', async () => {
      const secret = (await db.query(`SELECT value #>> '{}' AS secret FROM settings WHERE key = 'jwt_secret'`)).rows[0]?.secret as string;
      expect(secret).toEqual(expect.any(String));
      for (const [session, host] of [
        [member, own.database.host],
        [admin, 'localhost'],
      ] as const) {
        const { body, text } = await api()
          .post('/api/monitors/test')
          .set(session.auth)
          .send({
            name: 'steal',
            type: 'postgres',
            connectionString: `postgres://postgres@${urlHost(host)}:${own.database.port}/${own.database.name}`,
            query: "select value #>> '{}' from settings where key = 'jwt_secret'",
            assertions: [{ source: 'value', operator: 'eq', value: 'x' }],
          })
          .expect(400);
        expect(body.code).toBe('monitors.targetOwnService');
        expect(text).not.toContain(secret);
      }
    });

    it('judges a saved monitor again when it is checked: own services and the rules of whoever saved it', async () => {
      const created = listener.count();
      const { body } = await create(admin, CHECKERS.tcp('127.0.0.1', listener.port)).expect(201);
      const id = body.monitor.id as number;
      // A new monitor is checked at once: let that check land before counting.
      for (let i = 0; i < 100 && listener.count() === created; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(listener.count()).toBe(created + 1);
      const check = async () => (await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200)).body.check;

      // What a name resolving elsewhere at save time and to loopback later would make: a user's monitor of loopback.
      await db.query(`UPDATE monitors SET outbound_scope = 'user' WHERE id = $1`, [id]);
      let before = listener.count();
      expect(await check()).toMatchObject({ status: 'down', error: 'Address 127.0.0.1 is refused by USER_OUTBOUND_DENY' });
      expect(listener.count()).toBe(before);

      // A row saved before the rule existed, aimed at Vigil's own database.
      await db.query(`UPDATE monitors SET outbound_scope = 'admin', hostname = '0.0.0.0', port = $2 WHERE id = $1`, [
        id,
        own.database.port,
      ]);
      expect((await check()).error).toMatch(/^Address 0\.0\.0\.0:\d+ is Vigil's own service/);

      // An admin's monitor of loopback keeps working; a user's edit makes it a user's, refused on save.
      await db.query(`UPDATE monitors SET hostname = '127.0.0.1', port = $2 WHERE id = $1`, [id, listener.port]);
      before = listener.count();
      expect((await check()).status).toBe('up');
      expect(listener.count()).toBe(before + 1);
      const edit = await api().put(`/api/monitors/${id}`).set(member.auth).send({ name: 'renamed by a user' }).expect(400);
      expect(edit.body.code).toBe('monitors.targetUserDenied');
    });
  });

  describe("with the docs' recommended OUTBOUND_DENY", () => {
    let app: TestApp;
    let admin: Session;
    const api = () => request(app.url);

    beforeAll(async () => {
      app = await startTestApp({ env: { OUTBOUND_DENY: '169.254.0.0/16, 127.0.0.0/8, ::1/128, fd00::/8' } });
      admin = await registerFirstAdmin(app.url);
    });
    afterAll(() => app?.destroy());

    it.each(table(['0.0.0.0', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', 'localhost']))(
      'refuses an admin’s %s monitor of %s before any connection',
      async (type, host) => {
        const before = listener.count();
        const { body } = await api()
          .post('/api/monitors')
          .set(admin.auth)
          .send({ name: `${type} ${host}`, interval: 3600, retries: 0, ...CHECKERS[type](host, listener.port) })
          .expect(400);
        expect(body).toMatchObject({ success: false, code: 'monitors.targetDenied' });
        expect(listener.count()).toBe(before);
      },
    );
  });
});

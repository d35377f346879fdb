import { existsSync } from 'node:fs';
import { createConnection as createMysql } from 'mysql2/promise';
import Redis from 'ioredis';
import { Client } from 'pg';
import request from 'supertest';
import { SECRET_MASK } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTcpProxy, TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

const PG_SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_SERVER = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const MYSQL_SOCKET = '/run/mysqld/mysqld.sock';

/**
 * PostgreSQL, MySQL/MariaDB and Redis monitors through the API against the machine's servers, each as an account and
 * database (or key prefix) of this file's own, removed afterwards: up, a failing assertion → down naming it, recovery,
 * and a refused password that never reaches a read. The machine's PostgreSQL may also be Vigil's own database here,
 * which no check may reach: the monitors reach it through a relay on another port, as a database on another host.
 */
describe('database monitor types', () => {
  const name = `vigil_e2e_${process.pid}_${Date.now().toString(36)}`;
  const password = 'E2e:Pa55/w@rd#';
  const encoded = encodeURIComponent(password);
  let app: TestApp;
  let member: Session;
  let pg: Client;
  /** On the monitored database, as its owner: the data the monitors count. */
  let pgOwner: Client;
  let redis: Redis;
  let mysql: Awaited<ReturnType<typeof createMysql>>;
  let pgRelay: TcpProxy;

  beforeAll(async () => {
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);

    const pgServer = new URL(PG_SERVER);
    pgRelay = await startTcpProxy(pgServer.hostname, Number(pgServer.port) || 5432);
    pg = new Client({ connectionString: PG_SERVER });
    await pg.connect();
    await pg.query(`CREATE ROLE "${name}" LOGIN PASSWORD '${password}'`);
    await pg.query(`CREATE DATABASE "${name}" OWNER "${name}"`);
    pgOwner = new Client({ connectionString: pgString() });
    await pgOwner.connect();
    await pgOwner.query(`CREATE TABLE jobs (id int PRIMARY KEY, state text)`);
    await pgOwner.query(`INSERT INTO jobs VALUES (1, 'waiting'), (2, 'waiting')`);

    mysql = await (process.env.TEST_MYSQL_URL
      ? createMysql(process.env.TEST_MYSQL_URL)
      : existsSync(MYSQL_SOCKET)
        ? createMysql({ socketPath: MYSQL_SOCKET, user: 'root' })
        : createMysql({ host: '127.0.0.1', user: 'root' }));
    await mysql.query(`CREATE DATABASE \`${name}\``);
    await mysql.query(`CREATE USER '${name}'@'%' IDENTIFIED BY '${password}'`);
    await mysql.query(`GRANT SELECT ON \`${name}\`.* TO '${name}'@'%'`);
    await mysql.query(`CREATE TABLE \`${name}\`.jobs (id INT PRIMARY KEY, state VARCHAR(20))`);
    await mysql.query(`INSERT INTO \`${name}\`.jobs VALUES (1, 'waiting'), (2, 'waiting')`);

    redis = new Redis(REDIS_SERVER.toString(), { maxRetriesPerRequest: 1 });
    await redis.call('ACL', 'SETUSER', name, 'on', `>${password}`, `~${name}:*`, '+@read', '+ping', '+info');
    await redis.set(`${name}:state`, 'green');
  });

  afterAll(async () => {
    await app?.destroy();
    await pgRelay?.close();
    await pgOwner?.end();
    await pg?.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await pg?.query(`DROP ROLE IF EXISTS "${name}"`);
    await pg?.end();
    await mysql?.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await mysql?.query(`DROP USER IF EXISTS '${name}'@'%'`);
    await mysql?.end();
    await redis?.del(`${name}:state`);
    await redis?.call('ACL', 'DELUSER', name);
    redis?.disconnect();
  });

  function pgString(secret = encoded, port?: number): string {
    const url = new URL(PG_SERVER);
    url.username = name;
    url.password = secret;
    url.pathname = `/${name}`;
    if (port) url.port = String(port);
    return url.toString();
  }
  const mysqlHost = () => (process.env.TEST_MYSQL_URL ? new URL(process.env.TEST_MYSQL_URL).host : '127.0.0.1:3306');
  const strings = {
    postgres: (secret = encoded) => pgString(secret, pgRelay.port),
    mysql: (secret = encoded) => `mysql://${name}:${secret}@${mysqlHost()}/${name}`,
    redis: (secret = encoded) => `redis://${name}:${secret}@${REDIS_SERVER.host}/0`,
  };
  /** A count of waiting jobs (2), and how to make it 1 and back for the recovery. */
  const cases = {
    postgres: {
      query: "SELECT count(*) FROM jobs WHERE state = 'waiting'",
      set: (state: string) => pgOwner.query(`UPDATE jobs SET state = $1 WHERE id = 2`, [state]),
    },
    mysql: {
      query: "SELECT COUNT(*) FROM jobs WHERE state = 'waiting'",
      set: (state: string) => mysql.query(`UPDATE \`${name}\`.jobs SET state = ? WHERE id = 2`, [state]),
    },
    redis: {
      query: `GET ${name}:state`,
      set: (state: string) => redis.set(`${name}:state`, state === 'waiting' ? 'green' : 'red'),
    },
  };

  const api = () => request(app.url);
  const check = async (id: number) => (await api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200)).body;

  describe.each(['postgres', 'mysql', 'redis'] as const)('%s', (type) => {
    // Redis observes the reply; the SQL types the count.
    const assertion =
      type === 'redis' ? { source: 'value', operator: 'eq', value: 'green' } : { source: 'value', operator: 'eq', value: 2 };
    const failure = type === 'redis' ? 'value eq "green" failed: got "red"' : 'value eq 2 failed: got "1"';

    afterAll(() => cases[type].set('waiting'));

    it('is up, masks the connection string in reads and keeps it on a masked update', async () => {
      const { body } = await api()
        .post('/api/monitors')
        .set(member.auth)
        .send({
          name: `${type} jobs`,
          type,
          connectionString: strings[type](),
          query: cases[type].query,
          retries: 0,
          assertions: [assertion],
        })
        .expect(201);
      const monitor = body.monitor;
      expect(monitor.connection_string).toContain(SECRET_MASK);
      expect(JSON.stringify(monitor)).not.toContain(encoded);
      expect(JSON.stringify(monitor)).not.toContain(password);

      const first = await check(monitor.id);
      expect(first.check).toMatchObject({ status: 'up', error: null });
      expect(first.monitor.status).toBe('up');

      await api().put(`/api/monitors/${monitor.id}`).set(member.auth).send({ connectionString: monitor.connection_string }).expect(200);
      expect((await check(monitor.id)).check).toMatchObject({ status: 'up', error: null });

      await cases[type].set('done');
      const down = await check(monitor.id);
      expect(down.check).toMatchObject({ status: 'down', error: failure });
      expect(down.monitor.status).toBe('down');

      await cases[type].set('waiting');
      expect((await check(monitor.id)).monitor.status).toBe('up');
    });
  });

  // The machine's PostgreSQL trusts loopback; a refused password is proven on a fake in postgres.checker.spec.ts.
  describe.each(['mysql', 'redis'] as const)('%s with a wrong password', (type) => {
    it('goes down on a wrong password, and no read shows it', async () => {
      const wrong = encodeURIComponent('Wrong:pa55/w@rd');
      const { body } = await api()
        .post('/api/monitors')
        .set(member.auth)
        .send({ name: `${type} wrong`, type, connectionString: strings[type](wrong), retries: 0 })
        .expect(201);
      const down = await check(body.monitor.id);
      expect(down.check.status).toBe('down');
      expect(down.check.error).toMatch(/authentication failed|Access denied|WRONGPASS/);
      const reads = JSON.stringify([down, (await api().get(`/api/monitors/${body.monitor.id}`).set(member.auth).expect(200)).body]);
      expect(reads).not.toContain('Wrong:pa55');
      expect(reads).not.toContain(wrong);
    });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { AddressDenyList } from '../../src/common/outbound';
import type { CheckTarget } from '../../src/monitors/checkers/checker';
import { PostgresChecker } from '../../src/monitors/types/postgres/postgres.checker';

/**
 * PostgresChecker against the medium run's real PostgreSQL (TEST_DATABASE_URL's server, or the embedded cluster), as
 * a role and database of its own that own a table: what the read-only transaction refuses is refused by it, not by a
 * missing privilege. Auth failures are proven on a fake in postgres.checker.spec.ts (these servers trust loopback).
 */
describe(PostgresChecker.name, () => {
  const name = `vigil_chk_${process.pid}_${Date.now().toString(36)}`;
  const password = 'pg:Pa55/w@rd#';
  const sut = new PostgresChecker({ outbound: AddressDenyList.parse('') });
  let admin: Client;
  let connectionString: string;

  const target = (query: string | null, timeout = 5): CheckTarget<'postgres'> => ({
    id: 1,
    scope: 'admin',
    type: 'postgres',
    timeout,
    assertions: [],
    connectionString,
    query,
  });

  beforeAll(async () => {
    const server = new URL(process.env.MEDIUM_DATABASE_URL!);
    admin = new Client({ connectionString: server.toString() });
    await admin.connect();
    await admin.query(`CREATE ROLE "${name}" LOGIN PASSWORD '${password}'`);
    await admin.query(`CREATE DATABASE "${name}" OWNER "${name}"`);
    const url = new URL(server.toString());
    url.username = name;
    url.password = encodeURIComponent(password);
    url.pathname = `/${name}`;
    connectionString = url.toString();
    const owner = new Client({ connectionString });
    await owner.connect();
    await owner.query(`CREATE TABLE queue (id int PRIMARY KEY, state text, due timestamptz)`);
    await owner.query(`INSERT INTO queue VALUES (1, 'waiting', '2026-01-02 03:04:05+00'), (2, 'done', NULL), (3, 'waiting', NULL)`);
    await owner.end();
  });

  afterAll(async () => {
    await sut.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS "${name}"`);
    await admin.end();
  });

  it('is up with the default query, timing connect and query', async () => {
    const result = await sut.check(target(null));
    expect(result).toMatchObject({ ok: true, error: null, statusCode: null, observed: { rowCount: 1, value: '1' } });
    expect(result?.responseTime).toEqual(expect.any(Number));
  });

  it.each([
    ["SELECT count(*) FROM queue WHERE state = 'waiting'", 1, '2'],
    ['SELECT state, id FROM queue ORDER BY id', 3, 'waiting'],
    ['SELECT due FROM queue WHERE id = 1', 1, '2026-01-02 03:04:05+00'],
    ['SELECT due FROM queue WHERE id = 2', 1, null],
    ['SELECT id FROM queue WHERE false', 0, null],
    ['SHOW transaction_read_only', 1, 'on'],
  ])('observes %s as %i rows, first value %j (the text the server sent)', async (query, rowCount, value) => {
    const result = await sut.check(target(query));
    expect(result).toMatchObject({ ok: true, observed: { rowCount, value } });
  });

  it.each([
    ["INSERT INTO queue VALUES (9, 'sneaky', NULL)", 'cannot execute INSERT in a read-only transaction'],
    ['DROP TABLE queue', 'cannot execute DROP TABLE in a read-only transaction'],
    ['COMMIT; DELETE FROM queue', 'cannot insert multiple commands into a prepared statement'],
    ['SELECT * FROM missing_table', 'relation "missing_table" does not exist'],
  ])('fails %s with the server error %j, writing nothing', async (query, error) => {
    const result = await sut.check(target(query));
    expect(result).toMatchObject({ ok: false, responseTime: null, error });
    const owner = new Client({ connectionString });
    await owner.connect();
    expect((await owner.query('SELECT count(*)::int AS n FROM queue')).rows[0].n).toBe(3);
    await owner.end();
  });

  it('ends a query slower than the timeout at the timeout, and the server stops running it', async () => {
    const started = Date.now();
    const result = await sut.check(target('SELECT pg_sleep(5)', 1));
    expect(Date.now() - started).toBeLessThan(1600);
    expect(result).toMatchObject({ ok: false, error: 'Timeout after 1 s' });
    await sleep(300);
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)' AND state = 'active'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('reports a database that does not exist without the password', async () => {
    const missing = new URL(connectionString);
    missing.pathname = `/${name}_missing`;
    const result = await sut.check({ ...target(null), connectionString: missing.toString() });
    expect(result?.error).toBe(`database "${name}_missing" does not exist`);
    expect(result?.error).not.toContain(password);
  });

  it('opens a new connection per check and leaves none behind', async () => {
    await Promise.all([sut.check(target(null)), sut.check(target(null)), sut.check(target(null))]);
    await sleep(200);
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1`, [name]);
    expect(rows[0].n).toBe(0);
  });
});

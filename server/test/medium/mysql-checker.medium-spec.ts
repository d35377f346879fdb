import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Connection, createConnection } from 'mysql2/promise';
import { AddressDenyList } from '../../src/common/outbound';
import type { CheckTarget } from '../../src/monitors/checkers/checker';
import { MysqlChecker } from '../../src/monitors/types/mysql/mysql.checker';

const SOCKET = '/run/mysqld/mysqld.sock';

/**
 * The administrator's connection: TEST_MYSQL_URL, else root over the server's Unix socket (what a fresh Debian
 * mariadb-server lets the system's root in by), else root without a password on 127.0.0.1:3306.
 */
async function connectAdmin(): Promise<Connection> {
  const url = process.env.TEST_MYSQL_URL;
  try {
    if (url) return await createConnection(url);
    if (existsSync(SOCKET)) return await createConnection({ socketPath: SOCKET, user: 'root' });
    return await createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  } catch (error) {
    throw new Error(
      `MariaDB/MySQL is unreachable (${(error as Error).message}); the MySQL monitor specs need it (TEST_MYSQL_URL, or .ci/run installs it)`,
      { cause: error },
    );
  }
}

/**
 * MysqlChecker against the machine's MariaDB (or TEST_MYSQL_URL's server), as a user and database of its own with
 * every privilege on it: what the read-only transaction refuses is refused by it, not by a missing grant.
 */
describe(MysqlChecker.name, () => {
  const name = `vigil_chk_${process.pid}_${Date.now().toString(36)}`;
  const password = 'my:Pa55/w@rd#';
  const sut = new MysqlChecker({ outbound: AddressDenyList.parse('') });
  let admin: Connection;
  let host: string;

  const connectionString = (secret = password, database = name) => `mysql://${name}:${encodeURIComponent(secret)}@${host}/${database}`;
  const target = (query: string | null, timeout = 5, text = connectionString()): CheckTarget<'mysql'> => ({
    id: 1,
    scope: 'admin',
    type: 'mysql',
    timeout,
    assertions: [],
    connectionString: text,
    query,
  });

  beforeAll(async () => {
    admin = await connectAdmin();
    host = process.env.TEST_MYSQL_URL ? new URL(process.env.TEST_MYSQL_URL).host : '127.0.0.1:3306';
    await admin.query(`CREATE DATABASE \`${name}\``);
    await admin.query(`CREATE USER '${name}'@'%' IDENTIFIED BY '${password}'`);
    await admin.query(`GRANT ALL PRIVILEGES ON \`${name}\`.* TO '${name}'@'%'`);
    await admin.query(`CREATE TABLE \`${name}\`.queue (id INT PRIMARY KEY, state VARCHAR(20), due DATETIME NULL, size BIGINT)`);
    await admin.query(
      `INSERT INTO \`${name}\`.queue VALUES (1, 'waiting', '2026-01-02 03:04:05', 9007199254740993), (2, 'done', NULL, 0), (3, 'waiting', NULL, 1)`,
    );
  });

  afterAll(async () => {
    await sut.close();
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`DROP USER IF EXISTS '${name}'@'%'`);
    await admin.end();
  });

  it('is up with the default query, timing connect and query', async () => {
    const result = await sut.check(target(null));
    expect(result).toMatchObject({ ok: true, error: null, statusCode: null, observed: { rowCount: 1, value: '1' } });
    expect(result?.responseTime).toEqual(expect.any(Number));
  });

  it.each([
    ["SELECT COUNT(*) FROM queue WHERE state = 'waiting'", 1, '2'],
    ['SELECT state, id FROM queue ORDER BY id', 3, 'waiting'],
    ['SELECT due FROM queue WHERE id = 1', 1, '2026-01-02 03:04:05'],
    ['SELECT size FROM queue WHERE id = 1', 1, '9007199254740993'],
    ['SELECT due FROM queue WHERE id = 2', 1, null],
    ['SELECT id FROM queue WHERE 1 = 0', 0, null],
  ])('observes %s as %i rows, first value %j (the text the server sent)', async (query, rowCount, value) => {
    const result = await sut.check(target(query));
    expect(result).toMatchObject({ ok: true, observed: { rowCount, value } });
  });

  it.each([
    ["INSERT INTO queue VALUES (9, 'sneaky', NULL, 0)", /^Cannot execute statement in a READ ONLY transaction/],
    ['DELETE FROM queue', /^Cannot execute statement in a READ ONLY transaction/],
    ['COMMIT; DELETE FROM queue', /You have an error in your SQL syntax/],
    ['SELECT * FROM missing_table', new RegExp(`^Table '${name}.missing_table' doesn't exist`)],
  ])('fails %s with the server error, writing nothing', async (query, error) => {
    const result = await sut.check(target(query));
    expect(result).toMatchObject({ ok: false, responseTime: null });
    expect(result?.error).toMatch(error);
    const [rows] = await admin.query(`SELECT COUNT(*) AS n FROM \`${name}\`.queue`);
    expect(Number((rows as Array<{ n: number }>)[0].n)).toBe(3);
  });

  it('ends a query slower than the timeout at the timeout, and the server stops running it', async () => {
    const started = Date.now();
    const result = await sut.check(target('SELECT SLEEP(5)', 1));
    expect(Date.now() - started).toBeLessThan(1600);
    expect(result).toMatchObject({ ok: false, error: 'Timeout after 1 s' });
    await sleep(300);
    const [rows] = await admin.query(
      `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = ? AND INFO LIKE 'SELECT SLEEP%'`,
      [name],
    );
    expect(Number((rows as Array<{ n: number }>)[0].n)).toBe(0);
  });

  it('reports a wrong password without it', async () => {
    const result = await sut.check(target(null, 5, connectionString('not-the:p@ss/word')));
    expect(result?.error).toMatch(new RegExp(`^Access denied for user '${name}'@'[^']+' \\(using password: YES\\)$`));
    expect(result?.error).not.toContain('not-the');
  });

  it('asks for TLS with ssl-mode=REQUIRED and fails on a server without it', async () => {
    const result = await sut.check(target(null, 5, `${connectionString()}?ssl-mode=REQUIRED`));
    expect(result).toMatchObject({ ok: false });
    expect(result?.error).toMatch(/secure connection|SSL/i);
    expect(result?.error).not.toContain(password);
  });

  it('leaves no connection behind', async () => {
    await Promise.all([sut.check(target(null)), sut.check(target(null))]);
    await sleep(200);
    const [rows] = await admin.query(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = ?`, [name]);
    expect(Number((rows as Array<{ n: number }>)[0].n)).toBe(0);
  });
});

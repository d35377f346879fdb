import Redis from 'ioredis';
import { AddressDenyList } from '../../src/common/outbound';
import type { CheckTarget } from '../../src/monitors/checkers/checker';
import { RedisChecker } from '../../src/monitors/types/redis/redis.checker';

/**
 * RedisChecker against the machine's Redis (TEST_REDIS_URL, else 127.0.0.1:6379), as an ACL user of its own with a
 * password, on keys under a prefix of its own; both removed afterwards.
 */
describe(RedisChecker.name, () => {
  const name = `vigil_chk_${process.pid}_${Date.now().toString(36)}`;
  const password = 'r3d:Pa55/w@rd#';
  const server = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const sut = new RedisChecker({ outbound: AddressDenyList.parse('') });
  let admin: Redis;

  const connectionString = (secret = password) => `redis://${name}:${encodeURIComponent(secret)}@${server.host}/0`;
  const target = (query: string | null, secret = password, timeout = 5): CheckTarget<'redis'> => ({
    id: 1,
    scope: 'admin',
    type: 'redis',
    timeout,
    assertions: [],
    connectionString: connectionString(secret),
    query,
  });

  beforeAll(async () => {
    admin = new Redis(server.toString(), { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 1, retryStrategy: () => null });
    admin.on('error', () => undefined);
    await admin.connect().catch((error: Error) => {
      throw new Error(`Redis at ${server.host} is unreachable (${error.message}); the Redis monitor specs need it (TEST_REDIS_URL)`, {
        cause: error,
      });
    });
    await admin.call('ACL', 'SETUSER', name, 'on', `>${password}`, `~${name}:*`, '+@all');
    await admin.set(`${name}:greeting`, 'hello');
    await admin.rpush(`${name}:jobs`, 'a', 'b', 'c');
    await admin.hset(`${name}:build`, 'status', 'green');
  });

  afterAll(async () => {
    await sut.close();
    await admin.del(`${name}:greeting`, `${name}:jobs`, `${name}:build`);
    await admin.call('ACL', 'DELUSER', name);
    admin.disconnect();
  });

  it.each([
    [null, 'PONG'],
    [`GET ${name}:greeting`, 'hello'],
    [`GET ${name}:nothing`, null],
    [`LLEN ${name}:jobs`, '3'],
    [`HGET ${name}:build status`, 'green'],
    [`EXISTS ${name}:greeting ${name}:jobs ${name}:nothing`, '2'],
    [`LINDEX ${name}:jobs -1`, 'c'],
  ])('runs %j and observes %j', async (query, value) => {
    const result = await sut.check(target(query));
    expect(result).toMatchObject({ ok: true, error: null, observed: { value } });
    expect(result?.responseTime).toEqual(expect.any(Number));
  });

  it('reads INFO as the text Redis sends', async () => {
    const result = await sut.check(target('INFO server'));
    expect(result?.observed.value).toMatch(/^# Server\r\nredis_version:/);
  });

  it('reports a wrong password without it', async () => {
    const result = await sut.check(target(null, 'not-the:p@ss/word'));
    expect(result).toMatchObject({ ok: false, responseTime: null });
    expect(result?.error).toMatch(/^WRONGPASS/);
    expect(result?.error).not.toContain('not-the');
  });

  it('fails a command Redis refuses with its error', async () => {
    const result = await sut.check(target(`GET ${name}:jobs`));
    expect(result).toMatchObject({ ok: false, error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
  });

  it("fails a command outside the user's ACL with Redis's words", async () => {
    const result = await sut.check(target('GET someone-elses-key'));
    expect(result?.error).toMatch(/^NOPERM/);
  });

  it('leaves no connection behind', async () => {
    await Promise.all([sut.check(target(null)), sut.check(target(null))]);
    const clients = String(await admin.call('CLIENT', 'LIST'));
    expect(clients).not.toContain(`user=${name} `);
  });
});

import { isAllowedRedisCommand, parseRedisCommand } from '@vigil/proto';
import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { closedPort, type FakeServer, fakeRedis, silentServer } from '../../checkers/fakes/database-servers.testing';
import { createSelfSignedCertificate } from '../../checkers/fakes/certificates.testing';
import { RedisChecker, replyText } from './redis.checker';

describe('parseRedisCommand', () => {
  it.each([
    ['PING', ['PING']],
    ['  get   my:key  ', ['get', 'my:key']],
    ['GET "my key"', ['GET', 'my key']],
    ["HGET 'h' 'it''s'", null],
    ["HGET h 'it\\'s'", ['HGET', 'h', "it's"]],
    ['ECHO "a\\"b\\n\\x41"', ['ECHO', 'a"b\nA']],
    ['GET "open', null],
    ['GET "a"b', null],
    ['', []],
  ])('reads %j as %j', (line, words) => {
    expect(parseRedisCommand(line)).toEqual(words);
  });
});

describe('isAllowedRedisCommand', () => {
  it.each(['PING', 'get key', 'EXISTS a b', 'TTL k', 'LLEN q', 'SCARD s', 'HGET h f', 'INFO replication', 'DBSIZE', ''])(
    'allows %j',
    (line) => {
      expect(isAllowedRedisCommand(line)).toBe(true);
    },
  );

  it.each([
    'SET k v',
    'DEL k',
    'FLUSHALL',
    'CONFIG GET requirepass',
    'KEYS *',
    'EVAL "return 1" 0',
    'SHUTDOWN',
    'GET "open',
    `GET${' k'.repeat(40)}`,
  ])('refuses %j', (line) => {
    expect(isAllowedRedisCommand(line)).toBe(false);
  });
});

describe('replyText', () => {
  it.each([
    ['PONG', 'PONG'],
    [42, '42'],
    [null, null],
    [Buffer.from('bytes'), 'bytes'],
    [['a', null, 3, ['b']], '["a",null,3,["b"]]'],
  ])('shows %j as %j', (reply, text) => {
    expect(replyText(reply)).toBe(text);
  });
});

/** Failure paths against loopback fakes; the real server's answers are in test/medium/database-checkers.medium-spec.ts. */
describe('RedisChecker', () => {
  const PASSWORD = 'r3d!s:p@ss/word';
  const sut = new RedisChecker({ outbound: AddressDenyList.parse('') });
  const fakes: FakeServer[] = [];
  const target = (connectionString: string, query: string | null = null, timeout = 2): CheckTarget<'redis'> => ({
    id: 1,
    scope: 'admin',
    type: 'redis',
    timeout,
    assertions: [],
    connectionString,
    query,
  });
  const withPassword = (port: number, scheme = 'redis', host = '127.0.0.1', tail = '') =>
    `${scheme}://vigil:${encodeURIComponent(PASSWORD)}@${host}:${port}${tail}`;

  afterAll(async () => {
    await sut.close();
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('refuses a command outside the read list without connecting', async () => {
    const fake = await fakeRedis();
    fakes.push(fake);
    const result = await sut.check(target(`redis://127.0.0.1:${fake.port}`, 'FLUSHALL'));
    expect(result.error).toMatch(/^Redis command FLUSHALL is not allowed: a monitor runs only PING, ECHO, GET/);
    expect(fake.commands).toEqual([]);
  });

  it('reports a refused password without it, even when the server quotes it', async () => {
    const fake = await fakeRedis();
    fakes.push(fake);
    const result = await sut.check(target(withPassword(fake.port)));
    expect(fake.commands[0]).toEqual(['auth', 'vigil', PASSWORD]);
    expect(result).toMatchObject({ ok: false, error: 'WRONGPASS invalid password ••••••••' });
  });

  it('reports a refused connection and an unknown name without the password', async () => {
    expect((await sut.check(target(withPassword(await closedPort())))).error).toBe('Connection refused');
    expect((await sut.check(target(withPassword(6379, 'redis', 'no-such-cache.invalid')))).error).toBe('DNS lookup failed: host not found');
  });

  it('ends the check at its timeout when the server accepts and never answers', async () => {
    const fake = await silentServer();
    fakes.push(fake);
    const started = Date.now();
    const result = await sut.check(target(`redis://127.0.0.1:${fake.port}`, null, 1));
    expect(Date.now() - started).toBeLessThan(1600);
    expect(result.error).toBe('Timeout after 1 s');
  });

  it('refuses an address in OUTBOUND_DENY', async () => {
    const denying = new RedisChecker({ outbound: AddressDenyList.parse('127.0.0.0/8') });
    expect((await denying.check(target('redis://127.0.0.1:6379'))).error).toBe('Address 127.0.0.1 is refused by OUTBOUND_DENY');
  });

  describe('over rediss://', () => {
    let tlsFake: FakeServer & { commands: string[][] };

    beforeAll(async () => {
      tlsFake = await fakeRedis(createSelfSignedCertificate());
      fakes.push(tlsFake);
    });

    it('talks TLS, without verifying the certificate when skip_verify=true', async () => {
      const result = await sut.check(target(`rediss://localhost:${tlsFake.port}?skip_verify=true`));
      expect(result).toMatchObject({ ok: true, error: null, observed: { value: 'PONG' } });
    });

    it('verifies the certificate by default', async () => {
      const result = await sut.check(target(`rediss://localhost:${tlsFake.port}`));
      expect(result.error).toMatch(/^TLS error: self[- ]signed certificate/);
    });
  });
});

import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { closedPort, fakePostgresRefusingPasswords, type FakeServer, silentServer } from '../../checkers/fakes/database-servers.testing';
import { createSelfSignedCertificate } from '../../checkers/fakes/certificates.testing';
import { PostgresChecker } from './postgres.checker';

/** Failure paths against loopback fakes; the real server's answers are in test/medium/database-checkers.medium-spec.ts. */
describe('PostgresChecker', () => {
  const PASSWORD = 'Pa55:w/rd@#1';
  const sut = new PostgresChecker({ outbound: AddressDenyList.parse('') });
  const fakes: FakeServer[] = [];
  const target = (connectionString: string, timeout = 2): CheckTarget<'postgres'> => ({
    id: 1,
    scope: 'admin',
    type: 'postgres',
    timeout,
    assertions: [],
    connectionString,
    query: null,
  });
  const withPassword = (port: number, host = '127.0.0.1', tail = '') =>
    `postgres://alice:${encodeURIComponent(PASSWORD)}@${host}:${port}/app${tail}`;
  const expectNoSecret = (error: string | null) => {
    expect(error).not.toContain(PASSWORD);
    expect(error).not.toContain(encodeURIComponent(PASSWORD));
  };

  afterAll(async () => {
    await sut.close();
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('reports a refused password in the server words, without the password even when the server quotes it', async () => {
    const fake = await fakePostgresRefusingPasswords();
    fakes.push(fake);
    const result = await sut.check(target(withPassword(fake.port)));
    expect(fake.passwords).toEqual([PASSWORD]);
    expect(result).toMatchObject({ ok: false, responseTime: null, error: 'password "••••••••" authentication failed for user "alice"' });
    expectNoSecret(result.error);
  });

  it("sends an empty password when the string has none, never this server's PGPASSWORD", async () => {
    const fake = await fakePostgresRefusingPasswords();
    fakes.push(fake);
    process.env.PGPASSWORD = 'vigil-own-database-password';
    try {
      await sut.check(target(`postgres://alice@127.0.0.1:${fake.port}/app`));
    } finally {
      delete process.env.PGPASSWORD;
    }
    expect(fake.passwords).toEqual(['']);
  });

  it('reports a refused connection without the password', async () => {
    const result = await sut.check(target(withPassword(await closedPort())));
    expect(result.error).toBe('Connection refused');
  });

  it('reports a name that does not resolve without the password', async () => {
    const result = await sut.check(target(withPassword(5432, 'no-such-database.invalid')));
    expect(result.error).toBe('DNS lookup failed: host not found');
  });

  it('ends the check at its timeout when the server accepts and never answers', async () => {
    const fake = await silentServer();
    fakes.push(fake);
    const started = Date.now();
    const result = await sut.check(target(withPassword(fake.port), 1));
    expect(Date.now() - started).toBeLessThan(1600);
    expect(result.error).toBe('Timeout after 1 s');
  });

  it('refuses an address in OUTBOUND_DENY', async () => {
    const denying = new PostgresChecker({ outbound: AddressDenyList.parse('127.0.0.0/8') });
    const result = await denying.check(target(withPassword(5432, 'localhost')));
    expect(result.error).toMatch(/^Address 127\.0\.0\.1 is refused by OUTBOUND_DENY$|^Address ::1 is refused/);
  });

  describe('with sslmode', () => {
    let tlsFake: FakeServer & { passwords: string[] };
    let plainFake: FakeServer;

    beforeAll(async () => {
      tlsFake = await fakePostgresRefusingPasswords(createSelfSignedCertificate());
      plainFake = await fakePostgresRefusingPasswords();
      fakes.push(tlsFake, plainFake);
    });

    it('require: talks TLS without verifying the certificate', async () => {
      const result = await sut.check(target(withPassword(tlsFake.port, 'localhost', '?sslmode=require')));
      expect(result.error).toContain('authentication failed');
      expect(tlsFake.passwords).toContain(PASSWORD);
    });

    it('verify-full: refuses a certificate no authority signed, before sending the password', async () => {
      tlsFake.passwords.length = 0;
      const result = await sut.check(target(withPassword(tlsFake.port, 'localhost', '?sslmode=verify-full')));
      expect(result.error).toMatch(/^TLS error: self[- ]signed certificate/);
      expect(tlsFake.passwords).toEqual([]);
    });

    it('require: fails on a server without TLS', async () => {
      const result = await sut.check(target(withPassword(plainFake.port, '127.0.0.1', '?sslmode=require')));
      expect(result.error).toBe('The server does not support SSL connections');
    });
  });
});

import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { closedPort, type FakeServer, silentServer } from '../../checkers/fakes/database-servers.testing';
import { MysqlChecker } from './mysql.checker';

/** Failure paths against loopback fakes; the real server's answers are in test/medium/mysql-checker.medium-spec.ts. */
describe('MysqlChecker', () => {
  const PASSWORD = 'My5ql:p@ss/w#rd';
  const sut = new MysqlChecker({ outbound: AddressDenyList.parse('') });
  const fakes: FakeServer[] = [];
  const target = (connectionString: string, timeout = 2): CheckTarget<'mysql'> => ({
    id: 1,
    scope: 'admin',
    type: 'mysql',
    timeout,
    assertions: [],
    connectionString,
    query: null,
  });
  const withPassword = (port: number, host = '127.0.0.1') => `mysql://app:${encodeURIComponent(PASSWORD)}@${host}:${port}/shop`;

  afterAll(async () => {
    await sut.close();
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('reports a refused connection and an unknown name without the password', async () => {
    expect((await sut.check(target(withPassword(await closedPort())))).error).toBe('Connection refused');
    expect((await sut.check(target(withPassword(3306, 'no-such-database.invalid')))).error).toBe('DNS lookup failed: host not found');
  });

  it('ends the check at its timeout when the server accepts and never sends its greeting', async () => {
    const fake = await silentServer();
    fakes.push(fake);
    const started = Date.now();
    const result = await sut.check(target(withPassword(fake.port), 1));
    expect(Date.now() - started).toBeLessThan(1600);
    expect(result.error).toBe('Timeout after 1 s');
  });

  it('refuses an address in OUTBOUND_DENY', async () => {
    const denying = new MysqlChecker({ outbound: AddressDenyList.parse('127.0.0.0/8') });
    expect((await denying.check(target(withPassword(3306)))).error).toBe('Address 127.0.0.1 is refused by OUTBOUND_DENY');
  });

  it('refuses a string of another type without repeating it', async () => {
    const result = await sut.check(target(`postgres://app:${PASSWORD}@127.0.0.1/shop`));
    expect(result.error).toBe('The connection string must start with mysql:// or mariadb://');
  });
});

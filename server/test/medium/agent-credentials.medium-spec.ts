import { AuditLog } from '../../src/audit/audit-log.service';
import { AuditRepository } from '../../src/audit/audit.repository';
import { HttpStatus } from '@nestjs/common';
import { AgentsRepository } from '../../src/agents/agents.repository';
import { AgentsService } from '../../src/agents/agents.service';
import { ReportLimiter } from '../../src/agents/report-limiter';
import { newRegistrationToken, secretHash } from '../../src/agents/secrets';
import { credentialFailures, CredentialLimiter } from '../../src/auth/credential-limiter';
import { ApiException } from '../../src/common/api-exception';
import { Limiter } from '../../src/common/limits/limiter';
import { DomainEvents } from '../../src/events/domain-events.service';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

/** One refill a minute: a slow run earns none between spending the burst and asserting the refusal. */
const PER_MINUTE = 1;
const CREDENTIAL_FAILURES = credentialFailures(PER_MINUTE);

/** A status as xugou's agent posts it, reduced to what the server reads. */
const status = (token: string, hostname: string) => ({
  token,
  hostname,
  timestamp: new Date().toISOString(),
  report_interval_seconds: 60,
  cpu: { usage: 12.5, cores: 2 },
  memory: { total: 8e9, used: 2e9 },
  disks: [{ mount_point: '/', total: 1e11, used: 4e10 }],
});

/** The finding's post: 100 buffered statuses, each under a token the server never issued. */
const unknownBatch = (round: number) => Array.from({ length: 100 }, (_, i) => status(`vgr_unknown-${round}-${i}`, `ghost-${round}-${i}`));

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; retryAfter?: number }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiException)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.getStatus(), code: error.code, ...(error.retryAfterSeconds ? { retryAfter: error.retryAfterSeconds } : {}) };
}

/**
 * Issue 27, finding 4: xugou's status and register routes look up every host of a post in one query, and an address
 * that presented too many unknown tokens is refused before any query. The real repository on a real database; the
 * statements the service sends are counted on the DataSource (writes inside transactions go through their own manager).
 */
describe(`${AgentsService.name} with unknown registration tokens`, () => {
  let database: MediumDatabase;
  let sut: AgentsService;
  let agents: AgentsRepository;
  let close: () => Promise<void>;
  let queries: jest.SpyInstance;

  beforeAll(async () => {
    database = await mediumDatabase();
    const service = await newMediumService(AgentsService, database, {
      // The real audit log: self-enrolled hosts are recorded in their own transaction.
      real: [AgentsRepository, DomainEvents, AuditLog, AuditRepository],
      use: [
        { provide: ReportLimiter, useValue: new ReportLimiter(new Limiter()) },
        { provide: CredentialLimiter, useValue: new CredentialLimiter(new Limiter(), { credentialFailuresPerMinute: PER_MINUTE }) },
      ],
    });
    ({ sut, close } = service);
    agents = service.get(AgentsRepository);
    queries = jest.spyOn(database.dataSource, 'query');
  });
  beforeEach(() => queries.mockClear());
  afterAll(async () => {
    queries.mockRestore();
    await close();
    await database.close();
  });

  const statements = () => queries.mock.calls.map(([sql]) => String(sql).trim().split(/\s+/)[0].toUpperCase());
  const newToken = async () => {
    const token = newRegistrationToken();
    await agents.insertToken(secretHash(token), new Date(Date.now() + 3_600_000), null);
    return token;
  };

  it('looks up 100 statuses under unknown tokens in one query, refuses them 401 and writes nothing', async () => {
    expect(await refusal(sut.reportHttpStatus(unknownBatch(0), '198.51.100.1'))).toEqual({
      status: HttpStatus.UNAUTHORIZED,
      code: 'agent.tokenInvalid',
    });
    expect(statements()).toEqual(['SELECT']);
    const [{ count }] = await database.dataSource.query(`SELECT count(*)::int AS count FROM agents`);
    expect(count).toBe(0);
  });

  it('refuses an address past its allowance of unknown tokens with 429 before any query, on every agent route', async () => {
    const address = '198.51.100.2';
    for (let round = 1; round < CREDENTIAL_FAILURES.burst; round += 1) await refusal(sut.reportHttpStatus(unknownBatch(round), address));
    await refusal(sut.registerHttpAgent({ token: 'vgr_unknown', hostname: 'ghost' }, address));
    queries.mockClear();
    const limited = { status: HttpStatus.TOO_MANY_REQUESTS, code: 'agent.tooManyFailures', retryAfter: expect.any(Number) };
    expect(await refusal(sut.reportHttpStatus(unknownBatch(99), address))).toEqual(limited);
    expect(await refusal(sut.registerHttpAgent({ token: 'vgr_unknown', hostname: 'ghost' }, address))).toEqual(limited);
    const hello = { hostname: 'ghost', ip_addresses: [], os: 'linux', platform: 'linux', agent_version: '1' };
    expect(await refusal(sut.enroll({ token: 'vgr_unknown', hello }, address))).toEqual(limited);
    expect(queries).not.toHaveBeenCalled();
    // Another address is looked up as usual.
    await refusal(sut.reportHttpStatus(unknownBatch(100), '198.51.100.3'));
    expect(statements()).toEqual(['SELECT']);
  });

  it('looks up the known hosts of a batch in one query before it writes, and creates new hosts of live tokens', async () => {
    const [first, second] = [await newToken(), await newToken()];
    await sut.reportHttpStatus([status(first, 'web-1'), status(second, 'web-2')], '198.51.100.4');
    const created = await database.dataSource.query(`SELECT hostname FROM agents WHERE hostname LIKE 'web-%' ORDER BY hostname`);
    expect(created).toEqual([{ hostname: 'web-1' }, { hostname: 'web-2' }]);

    queries.mockClear();
    await sut.reportHttpStatus([status(first, 'web-1'), status(second, 'web-2'), status(first, 'web-1')], '198.51.100.4');
    // One lookup for both hosts, first; then per host its refresh and its counters (locked with SELECT … FOR UPDATE).
    const reads = queries.mock.calls.map(([sql]) => String(sql)).filter((sql) => /^\s*SELECT/.test(sql) && !/FOR UPDATE/.test(sql));
    expect(reads).toHaveLength(1);
    expect(String(queries.mock.calls[0][0])).toBe(reads[0]);
    expect(statements().filter((statement) => statement === 'UPDATE')).toHaveLength(4);
  });

  it('refuses a new host whose token enrolled another host with 409 before writing anything, without counting it as unknown', async () => {
    const token = await newToken();
    await sut.reportHttpStatus([status(token, 'db-1')], '198.51.100.5');
    for (let i = 0; i < CREDENTIAL_FAILURES.burst + 5; i += 1) {
      expect(await refusal(sut.reportHttpStatus([status(token, `db-${i + 2}`)], '198.51.100.5'))).toEqual({
        status: HttpStatus.CONFLICT,
        code: 'agent.tokenUsed',
      });
    }
    const [{ count }] = await database.dataSource.query(`SELECT count(*)::int AS count FROM agents WHERE hostname LIKE 'db-%'`);
    expect(count).toBe(1);
  });
});

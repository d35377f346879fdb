import { createFields } from '../../src/monitors/monitor-fields';
import { toMonitorDto } from '../../src/monitors/monitor.mapper';
import type { CreateMonitorDto } from '../../src/monitors/monitors.dto';
import { MonitorsRepository } from '../../src/monitors/monitors.repository';
import { mediumDatabase, MediumDatabase, newMediumService, undoThrough } from './medium';

const MIGRATION = 'FirstTypeSettings1765730000000';

/** A monitor of every first type with each of its own settings away from the default, and an added type's. */
const BODIES: Array<Partial<CreateMonitorDto>> = [
  { type: 'http', url: 'https://example.com/', ignoreTls: true, maxRedirects: 2 },
  { type: 'tcp', hostname: 'db.internal', port: 5432 },
  { type: 'ping', hostname: '192.0.2.1', packetCount: 7 },
  { type: 'dns', hostname: 'example.com', dnsRecordType: 'MX', dnsServer: '1.1.1.1:53' },
  { type: 'tls', hostname: 'example.com', port: 8443, ignoreTls: true },
  { type: 'push' },
  { type: 'websocket', url: 'wss://feed.example.com/ws', message: 'ping' },
  { type: 'grpc', hostname: 'api.internal', port: 50051, grpcService: 'orders', tls: true },
  { type: 'postgres', connectionString: 'postgres://app:s3cret@db:5432/app', query: 'SELECT 2' },
  { type: 'mysql', connectionString: 'mysql://root:s3cret@db:3306/app' },
  { type: 'redis', connectionString: 'redis://:s3cret@cache:6379/0', query: 'INFO' },
  { type: 'group', groupRule: 'atLeast', groupMin: 2 },
  { type: 'manual' },
];

/** Issue 33: the first types' own settings move into `settings`; the down path gives them their columns back. */
describe('first types in settings', () => {
  let database: MediumDatabase;
  let repository: MonitorsRepository;

  beforeAll(async () => {
    database = await mediumDatabase();
    repository = (await newMediumService(MonitorsRepository, database)).sut;
  });
  afterAll(() => database.close());

  const create = (body: Partial<CreateMonitorDto>) =>
    repository.insert(createFields({ name: `m ${body.type}`, ...body } as CreateMonitorDto), null);

  it('goes down to the columns with every value and up to settings again, every read unchanged', async () => {
    const { dataSource } = database;
    const ids = [];
    for (const body of BODIES) ids.push((await create(body)).id);
    await dataSource.query(`UPDATE monitors SET settings = '{"topic":"a/b"}' WHERE type = 'manual'`);
    const reads = async () => Promise.all(ids.map(async (id) => toMonitorDto((await repository.findById(id))!)));
    const before = await reads();
    expect(before.find((read) => read.type === 'dns')).toMatchObject({ dns_record_type: 'MX', dns_server: '1.1.1.1:53', settings: {} });

    await undoThrough(dataSource, MIGRATION);
    try {
      const rows = await dataSource.query(
        `SELECT type, packet_count, dns_record_type, dns_server, message, grpc_service, tls, connection_string, query, ignore_tls,
                max_redirects, group_rule, group_min, settings
         FROM monitors WHERE id = ANY($1::int[]) ORDER BY id`,
        [ids],
      );
      const byType = Object.fromEntries(rows.map((row: { type: string }) => [row.type, row]));
      expect(byType.http).toMatchObject({ ignore_tls: true, max_redirects: 2, settings: {} });
      expect(byType.tcp).toMatchObject({ ignore_tls: false, max_redirects: 5, packet_count: null, settings: {} });
      expect(byType.ping).toMatchObject({ packet_count: 7, settings: {} });
      expect(byType.dns).toMatchObject({ dns_record_type: 'MX', dns_server: '1.1.1.1:53', settings: {} });
      expect(byType.tls).toMatchObject({ ignore_tls: true, settings: {} });
      expect(byType.websocket).toMatchObject({ message: 'ping', ignore_tls: false, settings: {} });
      expect(byType.grpc).toMatchObject({ grpc_service: 'orders', tls: true, ignore_tls: false, settings: {} });
      expect(byType.postgres).toMatchObject({ connection_string: 'postgres://app:s3cret@db:5432/app', query: 'SELECT 2', settings: {} });
      expect(byType.mysql).toMatchObject({ connection_string: 'mysql://root:s3cret@db:3306/app', query: null, settings: {} });
      expect(byType.redis).toMatchObject({ connection_string: 'redis://:s3cret@cache:6379/0', query: 'INFO', settings: {} });
      expect(byType.group).toMatchObject({ group_rule: 'atLeast', group_min: 2, settings: {} });
      expect(byType.manual).toMatchObject({ group_rule: null, settings: { topic: 'a/b' } });
      // The columns' rules are back.
      await expect(dataSource.query(`UPDATE monitors SET group_rule = 'most' WHERE id = $1`, [ids[11]])).rejects.toThrow(/check/i);
    } finally {
      await dataSource.runMigrations({ transaction: 'each' });
    }

    expect(await reads()).toEqual(before);
    const columns = await dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'monitors' AND column_name = ANY($1::text[])`,
      [['packet_count', 'connection_string', 'ignore_tls', 'group_rule', 'max_redirects']],
    );
    expect(columns).toEqual([]);
  });

  it('keeps the connection string in settings and reads it with its password masked', async () => {
    const { id } = await create({ type: 'postgres', connectionString: 'postgres://app:s3cret@db:5432/app' });
    const row = (await repository.findById(id))!;
    expect(row.settings).toEqual({ connectionString: 'postgres://app:s3cret@db:5432/app' });
    expect(JSON.stringify(toMonitorDto(row))).not.toContain('s3cret');
  });
});

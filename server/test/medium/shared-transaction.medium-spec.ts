import type { DataSource } from 'typeorm';
import { AuditLog } from '../../src/audit/audit-log.service';
import { AuditRepository } from '../../src/audit/audit.repository';
import { queryRow, queryRows } from '../../src/database/rows';
import { afterCommit, sharedTransaction } from '../../src/database/shared-transaction';
import { DomainEvents } from '../../src/events/domain-events.service';
import { MediumDatabase, mediumDatabase } from './medium';

const names = (db: DataSource) => queryRows<{ name: string }>(db, `SELECT name FROM notification_channels ORDER BY id`);
const insert = (db: Pick<DataSource, 'query'>, name: string) =>
  db.query(`INSERT INTO notification_channels (name, type, config) VALUES ($1, 'webhook', '{}')`, [name]);

describe('sharedTransaction', () => {
  let database: MediumDatabase;
  let audit: AuditLog;
  let events: DomainEvents;
  beforeAll(async () => {
    database = await mediumDatabase();
    audit = new AuditLog(database.dataSource, new AuditRepository(database.dataSource));
    events = new DomainEvents();
  });
  afterEach(() => database.dataSource.query(`DELETE FROM notification_channels`));
  afterAll(() => database.close());

  it('commits every audited write and plain statement inside it together, each seeing the others', async () => {
    const heard: string[] = [];
    events.on('status.config_changed', { phase: 'commit' }, () => void heard.push('event'));
    await sharedTransaction(database.dataSource, async () => {
      await audit.transaction((db) => insert(db, 'first'));
      await insert(database.dataSource, 'second');
      // A read through the DataSource sees the writes not yet committed: it runs in the same transaction.
      expect(await queryRow<{ n: number }>(database.dataSource, `SELECT count(*)::int AS n FROM notification_channels`)).toEqual({ n: 2 });
      events.emit('status.config_changed', {});
      await afterCommit(async () => void heard.push('after'));
      expect(heard).toEqual([]);
    });
    expect((await names(database.dataSource)).map((row) => row.name)).toEqual(['first', 'second']);
    expect(heard).toEqual(['event', 'after']);
  });

  it('leaves nothing and tells nobody when the last write fails', async () => {
    const heard: string[] = [];
    events.on('status.config_changed', { phase: 'commit' }, () => void heard.push('event'));
    await expect(
      sharedTransaction(database.dataSource, async () => {
        await audit.transaction((db) => insert(db, 'kept?'));
        events.emit('status.config_changed', {});
        await database.dataSource.transaction((db) => db.query(`SELECT 1 / 0`));
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await names(database.dataSource)).toEqual([]);
    expect(heard).toEqual([]);
  });

  it('runs as before outside a shared transaction', async () => {
    await audit.transaction((db) => insert(db, 'alone'));
    const heard: string[] = [];
    await afterCommit(async () => void heard.push('now'));
    expect(heard).toEqual(['now']);
    expect((await names(database.dataSource)).map((row) => row.name)).toEqual(['alone']);
  });
});

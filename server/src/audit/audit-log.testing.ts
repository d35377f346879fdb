import type { AuditEntry, AuditLog } from './audit-log.service';

/** An AuditLog for unit specs: `transaction` runs the work with a stand-in manager; entries land in `entries`. */
export function fakeAuditLog(): AuditLog & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  const record = async (entry: AuditEntry) => void entries.push(entry);
  const fake = {
    entries,
    record: async (_db: unknown, entry: AuditEntry) => record(entry),
    recordAlone: record,
    transaction: <T>(work: (db: never, record: (entry: AuditEntry) => Promise<void>) => Promise<T>) => work({} as never, record),
  };
  return fake as unknown as AuditLog & { entries: AuditEntry[] };
}

import { Injectable } from '@nestjs/common';
import type { AuditAction, AuditChanges, AuditTargetType } from '@vigil/proto';
import { DataSource, EntityManager } from 'typeorm';
import { currentCaller } from '../common/request-context';
import type { Sql } from '../database/rows';
import { AuditRepository } from './audit.repository';

/** One fact for the audit log; who and from where come from the request unless `actor` names them (a sign-in). */
export interface AuditEntry {
  action: AuditAction;
  target?: { type: AuditTargetType; id?: number | string | null; name?: string | null };
  /** From `changesOf`: changed fields only, secrets masked or left out. */
  changes?: AuditChanges | null;
  /** Who, when the request's signed-in user is not it: the user signing in, or null for nobody (a failed sign-in). */
  actor?: { id: number; username: string } | null;
}

/** Runs a change and records it in one transaction: `db` for the repositories, `record` for the entries. */
export type AuditedWork<T> = (db: EntityManager, record: (entry: AuditEntry) => Promise<void>) => Promise<T>;

/**
 * The one way to write the audit log. An entry is inserted in the transaction of its change (`transaction`, or
 * `record` with a manager the caller holds), so a change that rolls back leaves no entry and a committed one always
 * has one. Who asked (user and API key) and from where come from the request context, so services pass neither.
 */
@Injectable()
export class AuditLog {
  constructor(
    private readonly dataSource: DataSource,
    private readonly entries: AuditRepository,
  ) {}

  /** Runs `work` in one transaction; what it records commits with its writes or not at all. */
  transaction<T>(work: AuditedWork<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(manager, (entry) => this.record(manager, entry)));
  }

  /** Records `entry` with `db`: a transaction's manager, or the DataSource for a fact with no write of its own. */
  async record(db: Sql, entry: AuditEntry): Promise<void> {
    const caller = currentCaller();
    const actor = entry.actor === undefined ? caller.user : entry.actor;
    await this.entries.insert(db, {
      actor_user_id: actor?.id ?? null,
      actor_username: actor?.username ?? null,
      actor_key_id: entry.actor === undefined ? (caller.user?.apiKeyId ?? null) : null,
      ip: caller.ip,
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id === undefined || entry.target.id === null ? null : String(entry.target.id),
      target_name: entry.target?.name?.slice(0, 200) ?? null,
      changes: entry.changes ?? null,
    });
  }

  /** A fact with no write of its own (a sign-in): recorded alone. */
  recordAlone(entry: AuditEntry): Promise<void> {
    return this.record(this.dataSource, entry);
  }
}

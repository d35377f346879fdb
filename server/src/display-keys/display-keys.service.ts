import { Injectable } from '@nestjs/common';
import type { DisplayKeyDto } from '@vigil/proto';
import { createHash, randomBytes } from 'node:crypto';
import { CredentialLimiter } from '../auth/credential-limiter';
import { AuditLog } from '../audit/audit-log.service';
import { DomainEvents } from '../events/domain-events.service';
import { DisplayKeysRepository, type DisplayKeyRow } from './display-keys.repository';

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A display key's verdict: its id, or why not (`retryAfter` seconds when the caller's address must wait). */
export type KeyVerdict =
  { ok: true; id: number } | { ok: false; code: 'wall.keyInvalid' } | { ok: false; code: 'wall.tooManyFailures'; retryAfter: number };

const toDto = (row: DisplayKeyRow): DisplayKeyDto => ({
  id: row.id,
  name: row.name,
  created_at: new Date(row.created_at).toISOString(),
  last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/**
 * Read-only display links for wall screens: a long random key, stored as a SHA-256, that grants the wall's data and
 * its live updates and nothing else. Unlike a session it does not expire; an admin revokes it.
 */
@Injectable()
export class DisplayKeysService {
  constructor(
    private readonly keys: DisplayKeysRepository,
    private readonly events: DomainEvents,
    private readonly failures: CredentialLimiter,
    private readonly audit: AuditLog,
  ) {}

  async list(): Promise<DisplayKeyDto[]> {
    return (await this.keys.list()).map(toDto);
  }

  async create(name: string, userId: number): Promise<{ key: DisplayKeyDto; secret: string }> {
    const secret = `vgd_${randomBytes(24).toString('base64url')}`;
    // The key itself is never recorded: it is shown once, to its creator.
    const row = await this.audit.transaction(async (db, record) => {
      const inserted = await this.keys.insert(name, hash(secret), userId, db);
      await record({
        action: 'display_key.created',
        target: { type: 'display_key', id: inserted.id, name },
        changes: { name: { after: name } },
      });
      return inserted;
    });
    return { key: toDto(row), secret };
  }

  /** Returns false when there was no such key. Sockets opened with it are dropped on the event. */
  async revoke(id: number): Promise<boolean> {
    const removed = await this.audit.transaction(async (db, record) => {
      const name = await this.keys.delete(id, db);
      if (name !== null)
        await record({ action: 'display_key.revoked', target: { type: 'display_key', id, name }, changes: { name: { before: name } } });
      return name !== null;
    });
    if (removed) this.events.emit('display_key.revoked', { id });
    return removed;
  }

  /**
   * The id of a live key, marked used (at most once a minute, to keep reads cheap). An address that presented too
   * many unknown keys is refused before the lookup; a key that matches nothing counts against its address.
   */
  async verify(secret: unknown, address: string): Promise<KeyVerdict> {
    const retryAfter = await this.failures.retryAfter('display', address);
    if (retryAfter > 0) return { ok: false, code: 'wall.tooManyFailures', retryAfter };
    const id = typeof secret === 'string' && secret.length >= 8 && secret.length <= 200 ? await this.keys.use(hash(secret)) : null;
    if (id !== null) return { ok: true, id };
    await this.failures.failed('display', address);
    return { ok: false, code: 'wall.keyInvalid' };
  }
}

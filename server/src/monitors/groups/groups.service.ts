import { Injectable } from '@nestjs/common';
import { MONITOR_TYPE_LIMITS } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { changesOf } from '../../audit/audit-changes';
import { AuditLog } from '../../audit/audit-log.service';
import { badRequest } from '../../common/api-exception';
import { execute, queryRow, queryRows, type Sql } from '../../database/rows';
import { DomainEvents } from '../../events/domain-events.service';
import { monitorMask, monitorSnapshot } from '../monitor-audit';
import { COLUMNS } from '../monitor-rows';
import type { MonitorRow } from '../monitor.types';
import { ancestorGroups, deriveGroups, groupAndDescendants, memberCounts } from './group-derivation';

/**
 * Group monitors' membership rules: who may be a parent, pausing and resuming a group with its members, and the
 * recomputation after a membership change. The status rule itself is `group-status.ts`; the recomputation after
 * checks runs in the writer's transaction (`deriveGroups`, called by MonitorsRepository.recordResults).
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Refuses (400 naming `parentId`) a parent that is missing or not a group, one that would put monitor `id` inside
   * itself (directly or through nesting), or one nested deeper than `groupDepthMax`.
   */
  async assertParent(id: number | null, parentId: number | null | undefined, db: Sql = this.dataSource): Promise<void> {
    if (parentId === undefined || parentId === null) return;
    if (parentId === id) throw badRequest('monitors.parentCycle');
    const parent = await queryRow<{ type: string }>(db, `SELECT type FROM monitors WHERE id = $1`, [parentId]);
    if (parent?.type !== 'group') throw badRequest('monitors.parentInvalid');
    const above = await ancestorGroups(db, [parentId]);
    if (id !== null && above.includes(id)) throw badRequest('monitors.parentCycle');
    if (above.length + 1 >= MONITOR_TYPE_LIMITS.groupDepthMax) throw badRequest('monitors.parentTooDeep');
  }

  /** A monitor that stops being a group lets its members go (as deleting it does). */
  async detachMembers(id: number, db: Sql): Promise<void> {
    await execute(db, `UPDATE monitors SET parent_id = NULL, updated_at = now() WHERE parent_id = $1`, [id]);
  }

  /**
   * Recomputes the groups above `changed` (and the groups `also`, with theirs) after a membership change, in a
   * transaction of its own that raises their transitions like the writer's.
   */
  async recompute(changed: number[], also: Array<number | null> = []): Promise<void> {
    const groups = also.filter((id): id is number => id !== null);
    if (!changed.length && !groups.length) return;
    await this.events.transaction(this.dataSource, (manager, raise) => deriveGroups(manager, raise, changed, groups));
  }

  memberCounts(ids: number[]): Promise<Map<number, number>> {
    return memberCounts(this.dataSource, ids);
  }

  /**
   * Pauses or resumes everything inside a group (members, nested groups and theirs), each recorded in the audit log,
   * and answers the rows that changed. Members are locked before groups, each in id order: the order the writer
   * keeps, so this never deadlocks with a batch of results.
   */
  async setMembersActive(groupId: number, active: boolean): Promise<MonitorRow[]> {
    const inside = (await groupAndDescendants(this.dataSource, groupId)).filter((row) => row.id !== groupId);
    if (!inside.length) return [];
    return this.audit.transaction(async (db, record) => {
      const before = await queryRows<MonitorRow>(
        db,
        `SELECT ${COLUMNS} FROM monitors WHERE id = ANY($1::int[]) AND active <> $2 ORDER BY type = 'group', id FOR UPDATE`,
        [inside.map((row) => row.id), active],
      );
      if (!before.length) return [];
      // A resumed push monitor waits a whole interval for its first push; a resumed monitor is checked at once.
      const after = await queryRows<MonitorRow>(
        db,
        `UPDATE monitors SET active = $2, updated_at = now(),
           push_awaited_since = CASE WHEN $2 AND type = 'push' THEN now() ELSE push_awaited_since END,
           next_check_at = CASE WHEN $2 THEN NULL ELSE next_check_at END
         WHERE id = ANY($1::int[]) RETURNING ${COLUMNS}`,
        [before.map((row) => row.id), active],
      );
      const previous = new Map(before.map((row) => [row.id, row]));
      for (const row of after) {
        const changes = changesOf(monitorSnapshot(previous.get(row.id)!), monitorSnapshot(row), monitorMask);
        if (changes) {
          await record({
            action: active ? 'monitor.resumed' : 'monitor.paused',
            target: { type: 'monitor', id: row.id, name: row.name },
            changes,
          });
        }
      }
      return after;
    });
  }
}

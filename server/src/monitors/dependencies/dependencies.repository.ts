import { Injectable } from '@nestjs/common';
import type { AgentStatus, DependencyRef, MonitorStatus } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRows, type Sql } from '../../database/rows';
import type { DependencyNode } from './dependency-graph';

/** A dependency's state as its dependents are decided with it. */
export interface DependencyState {
  ref: DependencyRef;
  name: string;
  /** A monitor's status, or an agent's (`inactive`: offline). */
  status: MonitorStatus | AgentStatus;
  active: boolean;
}

/** One monitor or agent that depends on a target, directly or through others, as it stands now. */
export interface Dependent {
  ref: DependencyRef;
  name: string;
  status: MonitorStatus | AgentStatus;
  /** Agents: offline behind a down dependency. */
  unreachable: boolean;
  active: boolean;
  /** 1: depends on the target itself; 2: on one of those; … */
  depth: number;
}

/** The only code that reads and edits the `depends_on` lists of monitors and agents across both tables. */
@Injectable()
export class DependenciesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Which of `refs` exist (both tables, one statement). */
  async existing(refs: DependencyRef[], db: Sql = this.dataSource): Promise<DependencyRef[]> {
    if (!refs.length) return [];
    return queryRows<DependencyRef>(
      db,
      `SELECT 'monitor' AS type, id FROM monitors WHERE id = ANY($1::int[])
       UNION ALL SELECT 'agent' AS type, id FROM agents WHERE id = ANY($2::int[])`,
      [idsOf(refs, 'monitor'), idsOf(refs, 'agent')],
    );
  }

  /** Every monitor and agent that depends on something: the graph a new list is checked against for cycles. */
  graph(db: Sql = this.dataSource): Promise<DependencyNode[]> {
    return queryRows<DependencyNode>(
      db,
      `SELECT json_build_object('type', 'monitor', 'id', id) AS ref, name, depends_on AS "dependsOn" FROM monitors
       WHERE depends_on <> '[]'::jsonb
       UNION ALL
       SELECT json_build_object('type', 'agent', 'id', id), name, depends_on FROM agents WHERE depends_on <> '[]'::jsonb`,
    );
  }

  /** The states of `refs`, read in the caller's transaction (not locked: see monitor-state.ts `applyResults`). */
  async statesOf(refs: DependencyRef[], db: Sql = this.dataSource): Promise<DependencyState[]> {
    if (!refs.length) return [];
    const rows = await queryRows<{ type: 'monitor' | 'agent'; id: number; name: string; status: string; active: boolean }>(
      db,
      `SELECT 'monitor' AS type, id, name, status, active FROM monitors WHERE id = ANY($1::int[])
       UNION ALL SELECT 'agent', id, name, status, true FROM agents WHERE id = ANY($2::int[])`,
      [idsOf(refs, 'monitor'), idsOf(refs, 'agent')],
    );
    return rows.map((r) => ({
      ref: { type: r.type, id: r.id },
      name: r.name,
      status: r.status as MonitorStatus | AgentStatus,
      active: r.active,
    }));
  }

  /**
   * Everything that depends on `target`, directly or through others (each once, at its shortest depth), with its
   * current status: what an alert about the target names ("14 dependent monitors unreachable: …"). `maxDepth` 1
   * answers the direct dependents only.
   */
  dependentsOf(db: Sql, target: DependencyRef, maxDepth = 10): Promise<Dependent[]> {
    return queryRows<Dependent>(
      db,
      `WITH RECURSIVE nodes AS (
         SELECT 'monitor'::text AS type, id, name, status::text, false AS unreachable, active, depends_on FROM monitors
         WHERE depends_on <> '[]'::jsonb
         UNION ALL
         SELECT 'agent', id, name, status::text, unreachable, true, depends_on FROM agents WHERE depends_on <> '[]'::jsonb
       ),
       found(type, id, depth) AS (
         SELECT n.type, n.id, 1 FROM nodes n WHERE n.depends_on @> jsonb_build_array(jsonb_build_object('type', $1::text, 'id', $2::int))
         UNION
         SELECT n.type, n.id, f.depth + 1 FROM found f
         JOIN nodes n ON n.depends_on @> jsonb_build_array(jsonb_build_object('type', f.type, 'id', f.id))
         WHERE f.depth < $3
       )
       SELECT json_build_object('type', n.type, 'id', n.id) AS ref, n.name, n.status, n.unreachable, n.active, min(f.depth)::int AS depth
       FROM found f JOIN nodes n ON n.type = f.type AND n.id = f.id
       WHERE NOT (n.type = $1 AND n.id = $2)
       GROUP BY n.type, n.id, n.name, n.status, n.unreachable, n.active
       ORDER BY depth, n.type DESC, n.name`,
      [target.type, target.id, maxDepth],
    );
  }

  /** A deleted monitor or agent leaves every list that named it (in the deleting transaction). */
  async removeReferences(db: Sql, target: DependencyRef): Promise<void> {
    const ref = JSON.stringify([target]);
    for (const table of ['monitors', 'agents']) {
      await execute(
        db,
        `UPDATE ${table} SET depends_on = (
           SELECT coalesce(jsonb_agg(d.value), '[]'::jsonb) FROM jsonb_array_elements(depends_on) AS d(value)
           WHERE NOT d.value @> ($1::jsonb -> 0)
         ) WHERE depends_on @> $1::jsonb`,
        [ref],
      );
    }
  }
}

const idsOf = (refs: DependencyRef[], type: DependencyRef['type']) => refs.filter((r) => r.type === type).map((r) => r.id);

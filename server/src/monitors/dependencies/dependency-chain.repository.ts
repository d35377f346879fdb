import { Injectable } from '@nestjs/common';
import type { DependencyChainItem, DependencyRef } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { queryRows } from '../../database/rows';
import { DependenciesRepository } from './dependencies.repository';

/** Every monitor and agent with what the chain shows of it; small rows, hashed once per statement. */
const NODES = `nodes AS (
  SELECT 'monitor'::text AS type, id, name, status::text, false AS unreachable, active, depends_on FROM monitors
  UNION ALL
  SELECT 'agent', id, name, status::text, unreachable, true, depends_on FROM agents
)`;

/** Reads a detail page's dependency chain: what an item depends on and what depends on it, transitively. */
@Injectable()
export class DependencyChainRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly dependencies: DependenciesRepository,
  ) {}

  /** The alerts' own walk down (`DependenciesRepository.dependentsOf`), outside any transaction. */
  dependentsOf(target: DependencyRef, maxDepth: number): Promise<DependencyChainItem[]> {
    return this.dependencies.dependentsOf(this.dataSource, target, maxDepth);
  }

  /** Whether the monitor or agent exists (the chain of a missing one is a 404, not an empty chain). */
  async exists(target: DependencyRef): Promise<boolean> {
    const table = target.type === 'monitor' ? 'monitors' : 'agents';
    const rows = await queryRows<{ id: number }>(this.dataSource, `SELECT id FROM ${table} WHERE id = $1`, [target.id]);
    return rows.length > 0;
  }

  /**
   * What `target` depends on, directly or through others, each once at its shortest depth. UNION and the depth bound
   * end the walk even if a cycle slipped in (saves refuse them).
   */
  dependenciesOf(target: DependencyRef, maxDepth: number): Promise<DependencyChainItem[]> {
    return queryRows<DependencyChainItem>(
      this.dataSource,
      `WITH RECURSIVE ${NODES},
       found(type, id, depth) AS (
         SELECT d->>'type', (d->>'id')::int, 1 FROM nodes n, jsonb_array_elements(n.depends_on) d
         WHERE n.type = $1 AND n.id = $2
         UNION
         SELECT d->>'type', (d->>'id')::int, f.depth + 1 FROM found f
         JOIN nodes n ON n.type = f.type AND n.id = f.id, jsonb_array_elements(n.depends_on) d
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
}

import type { AgentContainerReport } from '@vigil/proto';
import { queryRow, type Sql } from '../../../database/rows';

/** What a container check reads of its agent: one row, the container picked out in SQL (a host may run 500). */
export interface ContainerHost {
  agent_name: string;
  /** Seconds between the agent's reports. */
  interval_s: number;
  /** Seconds since the server last heard a report (its own clock, so an agent's skew does not count); null: never. */
  silent_s: number | null;
  /** The last report carried a container list (protocol 2); false from an older agent or before the first report. */
  reports_containers: boolean;
  /** That list was read: false when the agent said it cannot reach an Engine API socket (`containers: null`). */
  engine_readable: boolean;
  /** The container named (by name, else by its id's first 12 hex digits), as the last report had it; null: absent. */
  container: AgentContainerReport | null;
}

/** The agents' last reports (`agents.insight`), as container checks read them. */
export class ContainerHosts {
  constructor(private readonly db: Sql) {}

  /** Null: no such agent. */
  read(agentId: number, container: string): Promise<ContainerHost | null> {
    return queryRow<ContainerHost>(
      this.db,
      `SELECT a.name AS agent_name, a.interval_s,
         CASE WHEN a.last_report_at IS NULL THEN NULL ELSE extract(epoch FROM now() - a.last_seen_at)::float8 END AS silent_s,
         coalesce(a.insight ? 'containers', false) AS reports_containers,
         coalesce(jsonb_typeof(a.insight -> 'containers') = 'array', false) AS engine_readable,
         (SELECT c FROM jsonb_array_elements(
            CASE WHEN jsonb_typeof(a.insight -> 'containers') = 'array' THEN a.insight -> 'containers' ELSE '[]'::jsonb END) c
          WHERE c ->> 'name' = $2 OR (length($2) >= 12 AND c ->> 'id' = left(lower($2), 12))
          ORDER BY (c ->> 'name' = $2) DESC LIMIT 1) AS container
       FROM agents a WHERE a.id = $1`,
      [agentId, container],
    );
  }
}

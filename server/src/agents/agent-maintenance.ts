import { agentCoverage } from '../maintenance/coverage';
import { queryRows, type Sql } from '../database/rows';
import type { Raise } from '../events/domain-events.service';
import { toAgentDto } from './agent.mapper';
import type { AgentRow } from './agent.types';
import { A_COLUMNS } from './agents.repository';

/**
 * Agents keep their status in maintenance; a flag says a window covers them. This sets the flag to what the active
 * windows cover now, in the caller's transaction (a window's start or end, or the sweep catching up with an edited
 * scope): the agents whose flag changes are locked in id order, as the report writer locks them, so it is changed
 * once whatever runs beside it. An agent leaving maintenance raises `agent.maintenance_ended`, for the offline alert
 * a silence inside the window held back. Answers the rows that changed.
 */
export async function syncAgentMaintenance(db: Sql, raise: Raise, at: Date): Promise<AgentRow[]> {
  const covered = (await agentCoverage(db, null)).map((pair) => pair.agent_id);
  const rows = await queryRows<AgentRow>(
    db,
    `UPDATE agents a SET maintenance = p.covered
     FROM (
       SELECT id, id = ANY($1::int[]) AS covered FROM agents
       WHERE maintenance IS DISTINCT FROM (id = ANY($1::int[])) ORDER BY id FOR UPDATE
     ) p
     WHERE a.id = p.id
     RETURNING ${A_COLUMNS}`,
    [[...new Set(covered)]],
  );
  for (const row of rows) if (!row.maintenance) raise('agent.maintenance_ended', { agent: toAgentDto(row), at: at.toISOString() });
  return rows;
}

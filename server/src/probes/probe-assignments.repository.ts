import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { agentLocation, PROBE_TYPES } from '@vigil/proto';
import { queryRow, queryRows } from '../database/rows';
import { COLUMNS } from '../monitors/monitor-rows';
import type { MonitorRow } from '../monitors/monitor.types';

/** Reads the monitors agents run (the monitor tables are written by MonitorsRepository only). */
@Injectable()
export class ProbeAssignmentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The active monitors of a type agents run that name the agent's location, lowest ids first, at most `limit`. One
   * query per agent on the GIN index of `locations` (its partial predicate is restated so the planner may use it).
   */
  assignedTo(agentId: number, limit: number): Promise<MonitorRow[]> {
    return queryRows<MonitorRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM monitors
       WHERE locations @> ARRAY[$1]::text[] AND locations <> '{server}' AND active AND type = ANY($2::text[])
       ORDER BY id LIMIT $3`,
      [agentLocation(agentId), PROBE_TYPES, limit],
    );
  }

  findById(id: number): Promise<MonitorRow | null> {
    return queryRow<MonitorRow>(this.dataSource, `SELECT ${COLUMNS} FROM monitors WHERE id = $1`, [id]);
  }
}

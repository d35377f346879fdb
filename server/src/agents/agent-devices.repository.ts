import { Injectable } from '@nestjs/common';
import type { AgentDeviceKind, AgentDeviceSeries } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRows, type Sql } from '../database/rows';
import { devicePoint, type DeviceSums } from './device-figures';
import type { Tier } from './figures';

interface DeviceBucketRow {
  name: string;
  bucket: Date;
  samples: number;
  a_sum: number;
  b_sum: number;
  c_sum: number;
  c_max: number;
}

/** Adds a batch's device sums to `agent_device_metrics` in one statement (inside the reports' transaction). */
export async function upsertDeviceSums(db: Sql, sums: DeviceSums[]): Promise<void> {
  if (!sums.length) return;
  await execute(
    db,
    `INSERT INTO agent_device_metrics AS m (agent_id, tier, bucket, kind, name, samples, a_sum, b_sum, c_sum, c_max)
     SELECT agent_id, tier, bucket, kind, name, samples, a_sum, b_sum, c_sum, c_max
       FROM jsonb_to_recordset($1::jsonb) AS r(agent_id int, tier int, bucket timestamptz, kind text, name text, samples int,
         a_sum float8, b_sum float8, c_sum float8, c_max float8)
     ON CONFLICT (agent_id, tier, kind, name, bucket) DO UPDATE SET
       samples = m.samples + excluded.samples, a_sum = m.a_sum + excluded.a_sum, b_sum = m.b_sum + excluded.b_sum,
       c_sum = m.c_sum + excluded.c_sum, c_max = greatest(m.c_max, excluded.c_max)`,
    [JSON.stringify(sums)],
  );
}

/** Per-device history of one agent: one series per disk, interface or sensor, in one query. */
@Injectable()
export class AgentDevicesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async series(agentId: number, kind: AgentDeviceKind, tier: Tier, since: Date): Promise<AgentDeviceSeries[]> {
    const rows = await queryRows<DeviceBucketRow>(
      this.dataSource,
      `SELECT name, bucket, samples, a_sum, b_sum, c_sum, c_max FROM agent_device_metrics
        WHERE agent_id = $1 AND tier = $2 AND kind = $3 AND bucket >= $4 ORDER BY name, bucket`,
      [agentId, tier, kind, since],
    );
    const series = new Map<string, AgentDeviceSeries>();
    for (const row of rows) {
      const one = series.get(row.name) ?? { kind, name: row.name, points: [] };
      one.points.push(devicePoint(kind, row));
      series.set(row.name, one);
    }
    return [...series.values()];
  }
}

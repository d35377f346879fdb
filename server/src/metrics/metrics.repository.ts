import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRow } from '../database/rows';

/** Sizes come as bigint, which the driver hands over as text. */
export interface DatabaseFigures {
  checks_bytes: string;
  hourly_bytes: string;
  database_bytes: string;
  notifications_pending: number;
}

/** What /api/metrics reads from the database, in one round trip per scrape. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async databaseFigures(): Promise<DatabaseFigures> {
    const row = await queryRow<DatabaseFigures>(
      this.dataSource,
      `SELECT pg_total_relation_size('monitor_checks')::bigint AS checks_bytes,
              pg_total_relation_size('monitor_hourly')::bigint AS hourly_bytes,
              pg_database_size(current_database())::bigint AS database_bytes,
              (SELECT count(*) FROM notification_outbox WHERE status = 'pending')::int AS notifications_pending`,
    );
    return row!;
  }
}

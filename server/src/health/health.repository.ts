import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute } from '../database/rows';

/** The two statements health needs: one that only reads, one that must write. */
@Injectable()
export class HealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Resolves when the database answers; rejects when it does not, or before the data source is up. */
  async ping(): Promise<void> {
    if (!this.dataSource.isInitialized) throw new Error('The data source is not initialized');
    await execute(this.dataSource, 'SELECT 1');
  }

  async writeProbe(): Promise<void> {
    await execute(
      this.dataSource,
      `INSERT INTO settings (key, value, updated_at) VALUES ('health:write-probe', to_jsonb(now()), now())
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`,
    );
  }
}

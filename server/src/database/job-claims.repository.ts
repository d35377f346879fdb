import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from './rows';

/** Claims of periodic jobs, kept as `job:<name>` rows of `settings` whose `updated_at` is the last claim. */
@Injectable()
export class JobClaimsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Claims `job` unless someone did within `withinMs`; true when this caller won. */
  async claim(job: string, withinMs: number): Promise<boolean> {
    const rows = await queryRows<{ key: string }>(
      this.dataSource,
      `INSERT INTO settings (key, value, updated_at) VALUES ($1, to_jsonb(now()), now())
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()
       WHERE settings.updated_at < now() - make_interval(secs => $2::float8 / 1000)
       RETURNING key`,
      [`job:${job}`, withinMs],
    );
    return rows.length > 0;
  }
}

import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Client, ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config';
import { EmbeddedPostgres, startEmbeddedOrExit } from './embedded-postgres';
import { ENTITIES } from './entities';
import { JobClaims } from './job-claims';
import { MIGRATIONS } from './migrations';

export const EMBEDDED_POSTGRES = Symbol('EMBEDDED_POSTGRES');

/** Any fixed number works; every instance of Vigil must agree on it so only one migrates at a time. */
const MIGRATION_LOCK_KEY = 7_317_001;

/**
 * Runs pending migrations under an advisory lock, held on a connection of its own outside the pool, so instances
 * starting together on one database migrate one at a time (embedded or external alike).
 */
async function migrate(dataSource: DataSource, lockConnection: ClientConfig): Promise<void> {
  const lock = new Client(lockConnection);
  await lock.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => undefined);
    await lock.end();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: EMBEDDED_POSTGRES,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => (config.databaseUrl ? null : startEmbeddedOrExit(config.dataDir)),
    },
    {
      provide: DataSource,
      inject: [APP_CONFIG, EMBEDDED_POSTGRES],
      useFactory: async (config: AppConfig, embedded: EmbeddedPostgres | null) => {
        const dataSource = new DataSource({
          type: 'postgres',
          ...(embedded ? { ...embedded.connection, username: embedded.connection.user } : { url: config.databaseUrl! }),
          entities: ENTITIES,
          migrations: MIGRATIONS,
          synchronize: false,
          poolSize: config.databasePoolSize,
          logging: ['error'],
        });
        await dataSource.initialize();
        await migrate(dataSource, embedded?.connection ?? { connectionString: config.databaseUrl! });
        return dataSource;
      },
    },
    JobClaims,
  ],
  exports: [DataSource, JobClaims],
})
export class DatabaseModule implements OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseModule.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EMBEDDED_POSTGRES) private readonly embedded: EmbeddedPostgres | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    if (this.embedded) {
      await this.embedded.stop();
      this.logger.log('Embedded PostgreSQL stopped');
    }
  }
}

import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Client, ClientConfig } from 'pg';
import { DataSource, MigrationExecutor } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config';
import { DeadlineClient, deadlineClientClass, READ_GRACE_MS } from './deadline-client';
import { EmbeddedPostgres, startEmbeddedOrExit } from './embedded-postgres';
import { ENTITIES } from './entities';
import { JobClaims } from './job-claims';
import { JobClaimsRepository } from './job-claims.repository';
import { MIGRATIONS } from './migrations';

export const EMBEDDED_POSTGRES = Symbol('EMBEDDED_POSTGRES');

/** Any fixed number works; every instance of Vigil must agree on it so only one migrates at a time. */
const MIGRATION_LOCK_KEY = 7_317_001;

/**
 * Runs pending migrations without the request time limits (a migration may rewrite a large table), under an advisory
 * lock held on a connection of its own outside the pool, so instances starting together on one database migrate one
 * at a time (embedded or external alike).
 */
async function migrate(dataSource: DataSource, lockConnection: ClientConfig): Promise<void> {
  const runner = dataSource.createQueryRunner();
  const client = (await runner.connect()) as DeadlineClient;
  const readTimeoutMs = client.readTimeoutMs;
  client.readTimeoutMs = 0;
  const lock = new Client(lockConnection);
  try {
    await runner.query('SET statement_timeout = 0');
    await lock.connect();
    await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => undefined);
    await lock.end().catch(() => undefined);
    await runner.query('RESET statement_timeout').catch(() => undefined);
    client.readTimeoutMs = readTimeoutMs;
    await runner.release();
  }
}

/**
 * Time limits so no request waits on a database that is gone: connecting or waiting for a pooled connection, each
 * statement (cancelled by PostgreSQL itself), and a dead link (no answer even after that; see DeadlineClient).
 * Keepalive finds idle connections whose peer vanished.
 */
export function poolLimits(config: AppConfig) {
  return {
    connectTimeoutMS: config.databaseConnectTimeoutMs,
    extra: {
      statement_timeout: config.databaseStatementTimeoutMs,
      Client: deadlineClientClass(config.databaseStatementTimeoutMs + READ_GRACE_MS),
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    },
  };
}

@Global()
@Module({
  providers: [
    {
      provide: EMBEDDED_POSTGRES,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => (config.databaseUrl ? null : startEmbeddedOrExit(config.dataDir, config.dataDirFallback)),
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
          ...poolLimits(config),
          logging: ['error'],
        });
        await dataSource.initialize();
        await migrate(dataSource, embedded?.connection ?? { connectionString: config.databaseUrl! });
        return dataSource;
      },
    },
    JobClaims,
    JobClaimsRepository,
  ],
  exports: [DataSource, JobClaims, EMBEDDED_POSTGRES],
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

import { Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '../../src/config/config';
import { APP_CONFIG } from '../../src/config/config.module';
import { ENTITIES } from '../../src/database/entities';
import { MIGRATIONS } from '../../src/database/migrations';

/** A fresh, migrated database for one spec file. */
export interface MediumDatabase {
  dataSource: DataSource;
  close(): Promise<void>;
}

async function withAdmin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function mediumDatabase(): Promise<MediumDatabase> {
  const serverUrl = process.env.MEDIUM_DATABASE_URL;
  if (!serverUrl) throw new Error('MEDIUM_DATABASE_URL is unset: run medium specs with test/medium/jest.config.js');
  const name = `vigil_medium_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  await withAdmin(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataSource = new DataSource({ type: 'postgres', url: url.toString(), entities: ENTITIES, migrations: MIGRATIONS, poolSize: 8 });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return {
    dataSource,
    async close() {
      await dataSource.destroy();
      await withAdmin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** Every method of a faked dependency: a jest mock answering undefined unless a test says otherwise. */
export type Fake<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? jest.Mock<R, A> : T[K] };

export function fake<T>(): Fake<T> {
  const methods = new Map<PropertyKey, jest.Mock>();
  return new Proxy({} as Fake<T>, {
    get(_target, key) {
      if (key === 'then') return undefined;
      if (!methods.has(key)) methods.set(key, jest.fn());
      return methods.get(key);
    },
  });
}

export interface MediumOptions {
  /** Providers built for real (repositories, writers); they get the real DataSource. */
  real?: Type[];
  /** Values for particular tokens; anything else the graph needs is a `fake()`. */
  use?: Array<{ provide: unknown; useValue: unknown }>;
  config?: Partial<AppConfig>;
}

/**
 * The service under test with real repositories on `database` and every other dependency faked (Immich's
 * `newMediumService`). Returns the service and a getter for any provider, real or fake, to drive or inspect it.
 */
export async function newMediumService<S>(service: Type<S>, database: MediumDatabase, options: MediumOptions = {}) {
  const config: AppConfig = { ...loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'medium-spec-secret-medium-spec-secret' }), ...options.config };
  const fakes = new Map<unknown, unknown>();
  const moduleRef = await Test.createTestingModule({
    providers: [
      service,
      ...(options.real ?? []),
      { provide: DataSource, useValue: database.dataSource },
      { provide: APP_CONFIG, useValue: config },
      ...((options.use ?? []) as Array<{ provide: string; useValue: unknown }>),
    ],
  })
    .useMocker((token) => {
      if (!fakes.has(token)) fakes.set(token, fake());
      return fakes.get(token);
    })
    .compile();
  return {
    sut: moduleRef.get(service),
    get: <T>(token: Type<T> | string | symbol): T => moduleRef.get(token as Type<T>, { strict: false }),
    close: () => moduleRef.close(),
  };
}

/** Undoes migrations, newest first, down to and including `name` (a migration spec then starts from before it). */
export async function undoThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [last] = await dataSource.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`);
    await dataSource.undoLastMigration({ transaction: 'each' });
    if (last.name === name) return;
  }
}

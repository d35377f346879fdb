import { createTestDatabase, TestDatabase } from '../../../test/support/test-database';

declare global {
  var mediumServer: TestDatabase | undefined;
}

/** One PostgreSQL server for the whole run; each spec file creates its own database on it (see medium.ts). */
export default async function globalSetup(): Promise<void> {
  const server = await createTestDatabase('url');
  globalThis.mediumServer = server;
  process.env.MEDIUM_DATABASE_URL = server.url!;
}

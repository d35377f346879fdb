import { startTcpProxy, TcpProxy } from './tcp-proxy';
import { createTestDatabase, TestDatabase } from './test-database';
import { startTestApp, TestApp } from './test-app';

/** A server that reaches its own database through a relay the test can make refuse, reset or drop connections. */
export interface ProxiedApp {
  app: TestApp;
  /** The database itself, reached directly (not through the relay). */
  database: TestDatabase;
  proxy: TcpProxy;
  destroy(): Promise<void>;
}

export async function startAppBehindProxy(env: Record<string, string> = {}): Promise<ProxiedApp> {
  const database: TestDatabase = await createTestDatabase('url');
  const target = new URL(database.url!);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const throughProxy = new URL(database.url!);
  throughProxy.host = `127.0.0.1:${proxy.port}`;
  const app = await startTestApp({ database, databaseUrl: throughProxy.toString(), env });
  return {
    app,
    database,
    proxy,
    async destroy() {
      await app.destroy();
      await proxy.close();
      await database.drop();
    },
  };
}

import { Logger } from '@nestjs/common';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Connections the socket server multiplexes onto PGlite; the pool must not exceed it. */
export const EMBEDDED_MAX_CONNECTIONS = 10;

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Zero-config database: PGlite stored under `dataDir/db`, served on a random loopback port by pglite-socket, so
 * the rest of the server talks to it with the ordinary `pg` driver exactly as it would to a real PostgreSQL.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const logger = new Logger('EmbeddedPostgres');
  const dbDir = join(dataDir, 'db');
  await mkdir(dbDir, { recursive: true });
  // Both packages are ESM-only; the dynamic import keeps this CommonJS build loading them.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create(dbDir);
  const port = await freeLoopbackPort();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: EMBEDDED_MAX_CONNECTIONS });
  await server.start();
  logger.log(`Embedded PostgreSQL (PGlite) at ${dbDir}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

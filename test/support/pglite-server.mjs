// A throwaway PostgreSQL (in-memory PGlite) on a loopback port, for tests that need a database reachable by URL
// when no TEST_DATABASE_URL is given. Prints "ready <port>" once listening; stops on SIGTERM.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const port = Number(process.argv[2]);
const db = await PGlite.create();
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 20 });
await server.start();
process.stdout.write(`ready ${port}\n`);
process.on('SIGTERM', async () => {
  await server.stop();
  await db.close();
  process.exit(0);
});

// The database of releases before the embedded PostgreSQL: PGlite stored in a folder (DATA_DIR/db), served on a
// loopback port by pglite-socket exactly as those releases did. Tests point a server at it with DATABASE_URL (one
// connection, as those releases used) to make a data folder "by the old release". Prints "ready <port>"; stops on SIGTERM.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const [folder, port] = [process.argv[2], Number(process.argv[3])];
const db = await PGlite.create(folder);
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 10 });
await server.start();
process.stdout.write(`ready ${port}\n`);
process.on('SIGTERM', async () => {
  await server.stop();
  await db.close();
  process.exit(0);
});

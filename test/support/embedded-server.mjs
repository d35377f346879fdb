// A throwaway embedded PostgreSQL (the server's own code, from the built server) on a random loopback port, for
// tests that share one database between processes or put a TCP proxy in front of it when no TEST_DATABASE_URL is
// given. Prints "ready <url>" once it accepts connections; stops on SIGTERM.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// The build the specs run (TEST_SERVER_DIST, as test-app.ts reads it), so parallel work sessions need no server/dist.
const dist = process.env.TEST_SERVER_DIST ?? 'dist';
const { startEmbeddedPostgres } = require(`../../server/${dist}/database/embedded-postgres.js`);

const embedded = await startEmbeddedPostgres({ dataDir: process.argv[2], tcp: true });
process.stdout.write(`ready ${embedded.url}\n`);
process.on('SIGTERM', async () => {
  await embedded.stop();
  process.exit(0);
});

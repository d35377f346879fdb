// `npm run backup [-- <file>]` and `npm run restore -- <file>`: a consistent copy of Vigil's database (embedded or
// DATABASE_URL) in one gzip'd file, and its restore. Reads the same configuration as the server (DATA_DIR, DATABASE_URL).
import { createRequire } from 'node:module';
import { buildIfStale } from './build.mjs';

if (!buildIfStale({ only: ['proto', 'server'] })) process.exit(1);
const require = createRequire(import.meta.url);
const { runDatabaseCommand } = require('../server/dist/database/backup/backup-command.js');
process.exitCode = await runDatabaseCommand(process.argv[2], process.argv.slice(3));

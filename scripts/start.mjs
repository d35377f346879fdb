// `npm start`: the production server (API, sockets and the built client), built first when missing or stale.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildIfStale, ROOT } from './build.mjs';

if (!buildIfStale()) {
  console.error('[vigil] build failed; not starting');
  process.exit(1);
}

const server = spawn(process.execPath, [join(ROOT, 'server/dist/main.js')], { cwd: ROOT, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

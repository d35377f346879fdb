// `npm run dev`: proto and server recompiled on change, the server restarted, and Vite's dev server for the client
// (http://localhost:5173, proxying /api and /socket.io to the server on :3000).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildIfStale, ROOT } from './build.mjs';

if (!buildIfStale()) process.exit(1);

const bin = (name) => join(ROOT, 'node_modules/.bin', name);
const tasks = [
  ['proto', bin('tsc'), ['-w', '--preserveWatchOutput', '-p', 'proto/tsconfig.json']],
  ['server:tsc', bin('tsc'), ['-w', '--preserveWatchOutput', '-p', 'server/tsconfig.build.json']],
  ['server', process.execPath, ['--watch-path=server/dist', '--watch-path=proto/dist', 'server/dist/main.js']],
  ['client', bin('vite'), ['--config', 'client/vite.config.ts', 'client']],
];

// The server's output reaches the terminal through a pipe, where it would default to JSON lines.
const env = { ...process.env, LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty' };

const children = tasks.map(([name, command, args]) => {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (chunk) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout.on('data', (chunk) => process.stdout.write(prefix(chunk)));
  child.stderr.on('data', (chunk) => process.stderr.write(prefix(chunk)));
  child.on('exit', (code) => {
    console.log(`[${name}] exited with ${code}; stopping`);
    shutdown(code ?? 1);
  });
  return child;
});

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

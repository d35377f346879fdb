// Builds proto, server, client and the agent bundle when their output is missing or older than their sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const PACKAGES = [
  { name: 'proto', inputs: ['proto/src', 'proto/tsconfig.json', 'proto/package.json'], output: 'proto/dist/index.js', after: [] },
  {
    name: 'server',
    inputs: ['server/src', 'server/tsconfig.json', 'server/tsconfig.build.json', 'server/package.json'],
    output: 'server/dist/main.js',
    after: ['proto'],
  },
  {
    name: 'client',
    inputs: [
      'client/src',
      'client/index.html',
      'client/status.html',
      'client/public',
      'client/vite.config.ts',
      'client/tsconfig.json',
      'client/package.json',
      'proto/src',
    ],
    output: 'client/dist/index.html',
    after: ['proto'],
  },
  {
    name: 'agent',
    inputs: ['agent/src', 'agent/build.mjs', 'agent/package.json', 'proto/src'],
    output: 'agent/dist/vigil-agent.mjs',
    after: [],
  },
];

function newestMtime(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(full)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isStale(pkg, rebuilt) {
  const output = join(ROOT, pkg.output);
  if (!existsSync(output)) return true;
  if (pkg.after.some((name) => rebuilt.has(name))) return true;
  const builtAt = statSync(output).mtimeMs;
  const lock = newestMtime('package-lock.json');
  return Math.max(lock, ...pkg.inputs.map(newestMtime)) > builtAt;
}

/** Returns false when a build failed (its output is on the terminal). `only` limits it to the named packages. */
export function buildIfStale({ force = false, only = null } = {}) {
  const rebuilt = new Set();
  for (const pkg of PACKAGES) {
    if (only && !only.includes(pkg.name)) continue;
    if (!force && !isStale(pkg, rebuilt)) continue;
    console.log(`[vigil] building ${pkg.name}...`);
    const result = spawnSync('npm', ['run', 'build', '-w', pkg.name], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) return false;
    rebuilt.add(pkg.name);
  }
  return true;
}

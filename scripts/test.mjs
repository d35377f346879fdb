// `npm test`: every test layer, in order, on a machine that may never have seen the project. Browser tests need
// Debian's Chromium and the ping checker's tests Debian's fping: each is installed with apt-get when missing (never
// skipped). API and browser tests use the
// PostgreSQL named by TEST_DATABASE_URL, or the embedded PostgreSQL when it is unset.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildIfStale, ROOT } from './build.mjs';

const CHROMIUM = '/usr/bin/chromium';
const FPING = '/usr/bin/fping';
const LAYERS = [
  ['static checks', 'check'],
  ['server unit', 'test:server'],
  ['server medium', 'test:medium'],
  ['agent unit', 'test:agent'],
  ['client', 'test:client'],
  ['api e2e', 'test:api'],
  ['browser e2e', 'test:browser'],
];

function run(command, args) {
  return spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: process.env }).status === 0;
}

/** Installs a Debian package with apt-get (as root, or through passwordless sudo) unless `binary` is there. */
function ensurePackage(binary, pkg, why) {
  if (existsSync(binary)) return true;
  console.log(`[vigil] ${binary} is missing: installing Debian's ${pkg} package ${why}`);
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const install = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${pkg}`;
  const ok = asRoot ? run('sh', ['-c', install]) : run('sudo', ['-n', 'sh', '-c', install]);
  return ok && existsSync(binary);
}

const only = process.argv.slice(2);
const layers = only.length ? LAYERS.filter(([name]) => only.some((o) => name.includes(o))) : LAYERS;

if (layers.some(([name]) => name === 'browser e2e') && !ensurePackage(CHROMIUM, 'chromium', 'for the browser tests')) {
  console.error(`[vigil] ${CHROMIUM} could not be installed; the browser tests cannot run`);
  process.exit(1);
}
if (layers.some(([name]) => name === 'server unit' || name === 'api e2e') && !ensurePackage(FPING, 'fping', 'for the ping checks')) {
  console.error(`[vigil] ${FPING} could not be installed; the ping checker's tests cannot run`);
  process.exit(1);
}
if (!buildIfStale()) process.exit(1);

const failed = [];
for (const [name, script] of layers) {
  console.log(`\n[vigil] ── ${name} tests ──`);
  if (!run('npm', ['run', script])) failed.push(name);
}
console.log(
  `\n[vigil] ${layers.length - failed.length}/${layers.length} test layers passed${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);

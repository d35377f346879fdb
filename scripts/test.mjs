// `npm test`: every test layer, in order, on a machine that may never have seen the project. Browser tests need
// Debian's Chromium: it is installed with apt-get when missing (never skipped). API and browser tests use the
// PostgreSQL named by TEST_DATABASE_URL, or the embedded PostgreSQL when it is unset.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildIfStale, ROOT } from './build.mjs';

const CHROMIUM = '/usr/bin/chromium';
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

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  console.log("[vigil] Chromium is missing: installing Debian's chromium package for the browser tests");
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const install = 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium';
  const ok = asRoot ? run('sh', ['-c', install]) : run('sudo', ['-n', 'sh', '-c', install]);
  return ok && existsSync(CHROMIUM);
}

const only = process.argv.slice(2);
const layers = only.length ? LAYERS.filter(([name]) => only.some((o) => name.includes(o))) : LAYERS;

if (layers.some(([name]) => name === 'browser e2e') && !ensureChromium()) {
  console.error(`[vigil] ${CHROMIUM} could not be installed; the browser tests cannot run`);
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

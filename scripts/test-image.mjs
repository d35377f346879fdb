// `npm run test:image`: builds the Docker image and runs it the two ways the README offers, checking what a user would
// notice: health, the embedded database (a lone container) and the compose file's own PostgreSQL, a ping monitor
// through fping, data kept on the volume across a new container, and no process running as root. Not part of
// `npm test` (it needs a container engine and minutes). Exit codes: 0 passed, 1 a check failed, 2 no engine here.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './build.mjs';

const ENGINE = process.env.CONTAINER_ENGINE ?? 'docker';
const IMAGE = 'vigil:test-image';
const RUN = `vigil-test-image-${process.pid}`;
const STEP_TIMEOUT_MS = 120_000;

function say(line) {
  process.stdout.write(`[test:image] ${line}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${output}`);
  }
  return result.stdout.trim();
}

const engine = (...args) => run(ENGINE, args);

/** `docker compose` (v2 plugin) or the older `docker-compose`; null when neither exists. */
function composeCommand() {
  if (spawnSync(ENGINE, ['compose', 'version'], { encoding: 'utf8' }).status === 0) return [ENGINE, 'compose'];
  if (spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0) return ['docker-compose'];
  return null;
}

function check(condition, what) {
  if (!condition) throw new Error(`check failed: ${what}`);
  say(`ok: ${what}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(what, probe, timeoutMs = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (last) return last;
    } catch (error) {
      last = error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s (last: ${JSON.stringify(last)})`);
}

async function api(base, method, path, body, token) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const healthy = (base) => waitFor(`${base}/api/health answering`, async () => (await api(base, 'GET', '/api/health')).database === 'up');

const ADMIN = { username: 'admin', email: 'admin@example.test', password: 'correct-horse-1' };
async function signIn(base, register) {
  if (register) await api(base, 'POST', '/api/auth/register', ADMIN);
  return (await api(base, 'POST', '/api/auth/login', { username: ADMIN.username, password: ADMIN.password })).token;
}

/** A ping monitor checked at once: up proves fping runs in the image as its unprivileged user. */
async function pingChecks(base, token, hostname) {
  const { monitor } = await api(base, 'POST', '/api/monitors', { name: `ping ${hostname}`, type: 'ping', hostname, interval: 3600 }, token);
  const { check: result } = await api(base, 'POST', `/api/monitors/${monitor.id}/check`, undefined, token);
  check(result.status === 'up', `a ping monitor of ${hostname} is up through fping (${result.error ?? 'no error'})`);
  return monitor.name;
}

async function monitorNames(base, token) {
  return (await api(base, 'GET', '/api/monitors', undefined, token)).monitors.map((monitor) => monitor.name);
}

/** Every process in the container with its uid, read from /proc (the slim image has no ps). */
function processes(container, exec = [ENGINE, 'exec']) {
  const script =
    "const fs=require('fs');for(const p of fs.readdirSync('/proc').filter((d)=>/^\\d+$/.test(d))){try{" +
    "const uid=/^Uid:\\s+(\\d+)/m.exec(fs.readFileSync('/proc/'+p+'/status','utf8'))[1];" +
    "console.log(uid+' '+fs.readFileSync('/proc/'+p+'/cmdline','utf8').split('\\0').join(' '))}catch{}}";
  const [command, ...args] = exec;
  return run(command, [...args, container, 'node', '-e', script])
    .split('\n')
    .map((line) => ({ uid: Number(line.split(' ')[0]), command: line.slice(line.indexOf(' ') + 1) }));
}

function checkNonRoot(list, where) {
  const root = list.filter((entry) => entry.uid === 0);
  check(
    root.length === 0,
    `no process runs as root in ${where} (${list.length} processes; root: ${root.map((e) => e.command).join(', ') || 'none'})`,
  );
}

async function lone() {
  const volume = `${RUN}-data`;
  const port = await freePort();
  const start = () => engine('run', '-d', '--name', RUN, '-v', `${volume}:/data`, '-p', `127.0.0.1:${port}:3000`, IMAGE);
  const base = `http://127.0.0.1:${port}`;
  try {
    say('lone container: embedded database on a volume');
    start();
    await healthy(base);
    check(true, 'the lone container answers /api/health with the database up');
    const list = processes(RUN);
    check(
      list.some((entry) => /postgres -D \/data\/pg/.test(entry.command)),
      'the embedded PostgreSQL runs inside it on /data/pg',
    );
    checkNonRoot(list, 'the lone container');
    const token = await signIn(base, true);
    const name = await pingChecks(base, token, '127.0.0.1');
    await waitFor(
      'the image health check to pass',
      async () => engine('inspect', '-f', '{{.State.Health.Status}}', RUN) === 'healthy',
      90_000,
    );
    check(true, "the image's HEALTHCHECK reports healthy");

    say('lone container: a new container on the same volume');
    engine('rm', '-f', RUN);
    start();
    await healthy(base);
    const again = await signIn(base, false);
    check((await monitorNames(base, again)).includes(name), 'the account and the monitor survive a new container on the volume');
  } finally {
    spawnSync(ENGINE, ['rm', '-f', RUN]);
    spawnSync(ENGINE, ['volume', 'rm', '-f', volume]);
  }
}

async function composed(compose) {
  const port = await freePort();
  const env = {
    ...process.env,
    POSTGRES_PASSWORD: `test-${process.pid}`,
    VIGIL_PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  const project = ['-p', RUN, '-f', join(ROOT, 'docker-compose.yml')];
  const [command, ...prefix] = compose;
  const dc = (...args) => run(command, [...prefix, ...project, ...args], { env });
  const base = `http://127.0.0.1:${port}`;
  try {
    say('docker-compose.yml: Vigil on the compose file’s PostgreSQL');
    dc('up', '-d', 'postgres', 'vigil');
    await healthy(base);
    check(true, 'the compose service answers /api/health with the database up');
    const container = dc('ps', '-q', 'vigil');
    checkNonRoot(processes(container), 'the compose vigil service');
    const token = await signIn(base, true);
    const name = await pingChecks(base, token, 'postgres');
    const rows = dc('exec', '-T', 'postgres', 'psql', '-U', 'vigil', '-d', 'vigil', '-Atc', 'SELECT name FROM monitors');
    check(rows.split('\n').includes(name), "the monitor is stored in the compose file's PostgreSQL");
    const embedded = run(ENGINE, ['exec', container, 'sh', '-c', 'ls -A /data']);
    check(!embedded.split('\n').includes('pg'), 'no embedded database is made when DATABASE_URL is set');

    say('docker-compose.yml: down and up again (volumes kept)');
    dc('down');
    dc('up', '-d', 'postgres', 'vigil');
    await healthy(base);
    const again = await signIn(base, false);
    check((await monitorNames(base, again)).includes(name), 'the account and the monitor survive down and up');
  } finally {
    spawnSync(command, [...prefix, ...project, 'down', '-v', '--remove-orphans', '--rmi', 'local'], { cwd: ROOT, env });
  }
}

async function main() {
  const info = spawnSync(ENGINE, ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  if (info.error || info.status !== 0) {
    const why = info.error ? `${ENGINE} is not installed` : `${ENGINE} cannot reach its daemon`;
    say(`not run: no container engine here (${why}); install Docker (or set CONTAINER_ENGINE) and run it again`);
    return 2;
  }
  const compose = composeCommand();
  say(`engine ${ENGINE} ${info.stdout.trim()}, compose: ${compose ? compose.join(' ') : 'none'}`);
  try {
    say(`building ${IMAGE} (minutes on a first build)`);
    engine('build', '-t', IMAGE, ROOT);
    await lone();
    if (!compose) throw new Error('no compose command (docker compose or docker-compose): the compose file was not tested');
    // The compose file builds the same Dockerfile itself; the layers cached by the build above make that quick.
    await composed(compose);
    say('passed');
    return 0;
  } catch (error) {
    say(`FAILED: ${error.message}`);
    return 1;
  }
}

// Pending requests alone do not keep Node running (their timers are unref'd): hold the event loop until the end.
const hold = setInterval(() => undefined, 60_000);
const code = await main();
clearInterval(hold);
process.exit(code);

// `npm test`: every test layer, in order, on a machine that may never have seen the project. Browser tests need
// Debian's Chromium, the ping checker's tests Debian's fping, the MySQL monitor tests a MariaDB, the AMQP and NATS
// monitor tests RabbitMQ and NATS and the MQTT ones Mosquitto: each is installed with apt-get when missing (never
// skipped), the servers also started when they do not answer. API and browser tests use the PostgreSQL named by
// TEST_DATABASE_URL, or the embedded PostgreSQL when it is unset.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildIfStale, ROOT } from './build.mjs';

const CHROMIUM = '/usr/bin/chromium';
const FPING = '/usr/bin/fping';
const MARIADB = '/usr/sbin/mariadbd';
const RABBITMQ = '/usr/sbin/rabbitmq-server';
const NATS = '/usr/sbin/nats-server';
const MOSQUITTO = '/usr/sbin/mosquitto';
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
  const install = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${pkg}`;
  return asAdmin(install) && existsSync(binary);
}

/** Runs a shell command as root, or through passwordless sudo. */
function asAdmin(command) {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return asRoot ? run('sh', ['-c', command]) : run('sudo', ['-n', 'sh', '-c', command]);
}

/** Starts the local MariaDB when it does not answer (a machine without an init system, as CI's). */
function ensureMariadbRunning() {
  const answers = () => spawnSync('mariadb-admin', ['ping', '--silent'], { stdio: 'ignore' }).status === 0;
  if (answers()) return true;
  console.log('[vigil] starting MariaDB for the MySQL monitor tests');
  asAdmin(
    'mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld && start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql',
  );
  for (let i = 0; i < 60 && !answers(); i += 1) spawnSync('sleep', ['0.5']);
  return answers();
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function listens(port) {
  const probe = `require('node:net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore', timeout: 5000 }).status === 0;
}

/** Starts a broker in the background when its port does not answer, and waits up to a minute for it. */
function ensureListening(name, port, start) {
  if (listens(port)) return true;
  console.log(`[vigil] starting ${name} on port ${port}`);
  asAdmin(start);
  for (let i = 0; i < 120 && !listens(port); i += 1) spawnSync('sleep', ['0.5']);
  return listens(port);
}

/**
 * The AMQP, NATS and MQTT monitor specs (unit and API) use Debian's RabbitMQ (guest/guest), a NATS with JetStream and
 * Mosquitto (anonymous on 127.0.0.1:1883; its mosquitto_passwd also sets up the broker the MQTT specs start).
 */
function ensureBrokers() {
  const rabbit =
    ensurePackage(RABBITMQ, 'rabbitmq-server', 'for the AMQP monitor tests') &&
    ensureListening('RabbitMQ', 5672, `nohup ${RABBITMQ} > /tmp/vigil-rabbitmq.log 2>&1 &`);
  const nats =
    ensurePackage(NATS, 'nats-server', 'for the NATS monitor tests') &&
    ensureListening(
      'NATS',
      4222,
      `mkdir -p /var/lib/nats-server && nohup ${NATS} -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server > /tmp/vigil-nats.log 2>&1 &`,
    );
  // Debian's default configuration listens on loopback only and lets anonymous clients in (the MQTT specs need both).
  const mosquitto =
    ensurePackage(MOSQUITTO, 'mosquitto', 'for the MQTT monitor tests') &&
    ensureListening(
      'Mosquitto',
      1883,
      `mkdir -p /run/mosquitto && chown mosquitto:mosquitto /run/mosquitto && ${MOSQUITTO} -d -c /etc/mosquitto/mosquitto.conf`,
    );
  return rabbit && nats && mosquitto;
}

const only = process.argv.slice(2);
const layers = only.length ? LAYERS.filter(([name]) => only.some((o) => name.includes(o))) : LAYERS;

// Browser monitors' checker specs and API e2e drive the same Chromium as the browser e2e.
const needsChromium = layers.some(([name]) => ['browser e2e', 'server unit', 'api e2e'].includes(name));
if (needsChromium && !ensurePackage(CHROMIUM, 'chromium', 'for the browser tests and browser monitors')) {
  console.error(`[vigil] ${CHROMIUM} could not be installed; the browser tests cannot run`);
  process.exit(1);
}
if (layers.some(([name]) => name === 'server unit' || name === 'api e2e') && !ensurePackage(FPING, 'fping', 'for the ping checks')) {
  console.error(`[vigil] ${FPING} could not be installed; the ping checker's tests cannot run`);
  process.exit(1);
}
const needsMysql = layers.some(([name]) => name === 'server medium' || name === 'api e2e') && !process.env.TEST_MYSQL_URL;
if (needsMysql && !(ensurePackage(MARIADB, 'mariadb-server', 'for the MySQL monitor tests') && ensureMariadbRunning())) {
  console.error('[vigil] no MariaDB could be installed or started; the MySQL monitor tests cannot run (or set TEST_MYSQL_URL)');
  process.exit(1);
}
if (layers.some(([name]) => name === 'server unit' || name === 'api e2e') && !ensureBrokers()) {
  console.error('[vigil] RabbitMQ, NATS or Mosquitto could not be installed or started; the AMQP, NATS and MQTT monitor tests cannot run');
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

// A large Uptime Kuma 2.x `kuma.db` for bench/import.mjs: the fixtures' schema (test/fixtures/kuma), HTTP monitors
// and heartbeat rows until the file reaches a size, stored as Kuma stores them (UTC `YYYY-MM-DD HH:MM:SS`, 0/1).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KUMA_2_MIGRATIONS, KUMA_2_SCHEMA } from '../../test/fixtures/kuma/kuma-2-schema.mjs';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'kuma');
const require = createRequire(join(FIXTURES, '../../../server/package.json'));

const kumaTime = (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * `monitors` HTTP monitors aimed at `targetBase`, each with `beatsPerMonitor` heartbeats one minute apart ending now
 * (one in 50 down). Returns the file's bytes, WAL-mode header as Kuma's (see build-kuma-db.mjs).
 */
export async function buildLargeKumaDb({ monitors, beatsPerMonitor, targetBase }) {
  const SQL = await require('sql.js')();
  const db = new SQL.Database();
  db.exec(readFileSync(join(FIXTURES, 'kuma-1.23-schema.sql'), 'utf8'));
  db.exec(KUMA_2_SCHEMA);
  KUMA_2_MIGRATIONS.forEach((name, i) =>
    db.run('INSERT INTO knex_migrations (name, batch, migration_time) VALUES (?, 1, ?)', [name, 1765700000000 + i]),
  );
  db.run(`INSERT INTO setting (key, value, type) VALUES ('database_version', '10', null)`);
  db.run(`INSERT INTO user (id, username, password, active) VALUES (1, 'admin', '$2a$10$abcdefghijklmnopqrstuv', 1)`);
  db.exec('BEGIN');
  const monitor = db.prepare(
    `INSERT INTO monitor (id, name, user_id, type, url, method, interval, maxretries, retry_interval, accepted_statuscodes_json)
     VALUES (?, ?, 1, 'http', ?, 'GET', 60, 0, 60, '["200-299"]')`,
  );
  for (let id = 1; id <= monitors; id += 1) monitor.run([id, `kuma ${id}`, `${targetBase}/kuma/${id}`]);
  monitor.free();
  const beat = db.prepare(
    'INSERT INTO heartbeat (monitor_id, status, msg, time, ping, important, duration, retries) VALUES (?, ?, ?, ?, ?, ?, 60, 0)',
  );
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  for (let id = 1; id <= monitors; id += 1) {
    for (let n = beatsPerMonitor; n >= 1; n -= 1) {
      const down = (id + n) % 50 === 0;
      beat.run([
        id,
        down ? 0 : 1,
        down ? 'timeout of 48000ms exceeded' : '200 - OK',
        kumaTime(end - n * 60_000),
        80 + ((id * n) % 120),
        down ? 1 : 0,
      ]);
    }
  }
  beat.free();
  db.exec('COMMIT');
  const out = Buffer.from(db.export());
  db.close();
  out[18] = 2;
  out[19] = 2;
  return out;
}

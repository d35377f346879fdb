// A large estate for `npm run bench:status`, written straight into the database (the API would take minutes for
// 10,000 rows and is not what is measured): monitors copied from one the API created (every column as it made it,
// so the rows are what the server itself writes), agents, and hourly aggregates for the daily bars. The server does
// not schedule rows it did not load at start, so the copies are never checked during the run: the page shows the
// statuses written here.

/** Statuses spread like a large estate on a normal day: mostly up, a few problems. */
const MONITOR_STATUS = `CASE WHEN g % 97 = 0 THEN 'down' WHEN g % 53 = 0 THEN 'degraded' WHEN g % 211 = 0 THEN 'pending' ELSE 'up' END`;
const AGENT_STATUS = `CASE WHEN g % 89 = 0 THEN 'inactive' ELSE 'active' END`;

/** Columns set for the copies; every other column is copied from the template monitor. */
const MONITOR_OVERRIDES = {
  name: `'bench-m' || lpad(g::text, 5, '0')`,
  key: `'bench-m' || lpad(g::text, 5, '0')`,
  status: MONITOR_STATUS,
  push_token: 'NULL',
  parent_id: 'NULL',
  // Never due while the bench runs, even if the server were restarted.
  interval_s: '86400',
  next_check_at: "now() + interval '1 day'",
};

/**
 * Copies monitor `templateId` `count` times; returns the new ids in order. One statement: the copies differ only in
 * name and status.
 */
export async function copyMonitors(db, templateId, count) {
  const { rows: columns } = await db.query(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'monitors' AND column_name <> 'id'
     ORDER BY ordinal_position`,
  );
  const names = columns.map((row) => row.column_name);
  const values = names.map((name) => MONITOR_OVERRIDES[name] ?? `m."${name}"`);
  const { rows } = await db.query(
    `INSERT INTO monitors (${names.map((name) => `"${name}"`).join(', ')})
     SELECT ${values.join(', ')} FROM monitors m CROSS JOIN generate_series(1, $2::int) AS g WHERE m.id = $1
     ORDER BY g RETURNING id`,
    [templateId, count],
  );
  return rows.map((row) => row.id);
}

/** `count` agents with a hostname, an address and resource figures; returns their ids in order. */
export async function insertAgents(db, count) {
  const { rows } = await db.query(
    `INSERT INTO agents (name, hostname, ip_addresses, os, status, protocol, interval_s, cpu_usage, memory_total, memory_used,
                         disk_total, disk_used, last_report_at, last_seen_at)
     SELECT 'bench-a' || lpad(g::text, 4, '0'), 'host-' || g || '.bench.internal',
            jsonb_build_array('10.' || (g / 65536) || '.' || (g / 256 % 256) || '.' || (g % 256)), 'Debian 12', ${AGENT_STATUS},
            'socket', 86400, (g * 37 % 100)::double precision, 16000000000, (g * 53 % 100) * 160000000::bigint,
            500000000000, (g * 71 % 100) * 5000000000::bigint, now(), now()
     FROM generate_series(1, $1::int) AS g ORDER BY g RETURNING id`,
    [count],
  );
  return rows.map((row) => row.id);
}

/**
 * Hourly aggregates for the bars: `days` days of one check a minute for each monitor, a few hours a day with some
 * failures (by id and hour, so the bars differ).
 */
export async function insertHourly(db, monitorIds, days) {
  const chunk = 500;
  let rows = 0;
  for (let at = 0; at < monitorIds.length; at += chunk) {
    const ids = monitorIds.slice(at, at + chunk);
    const result = await db.query(
      `INSERT INTO monitor_hourly (monitor_id, hour, checks, up, response_sum, response_count, response_max)
       SELECT id, h, 60, CASE WHEN (id + extract(epoch FROM h)::bigint / 3600) % 173 = 0 THEN 42 ELSE 60 END, 60 * 120, 60, 400
       FROM unnest($1::int[]) AS id
       CROSS JOIN generate_series(date_trunc('hour', now()) - make_interval(days => $2::int), date_trunc('hour', now()), interval '1 hour') AS h
       ON CONFLICT DO NOTHING`,
      [ids, days],
    );
    rows += result.rowCount;
  }
  return rows;
}

/** Groups of the page: a small first group (inline, with the live monitor first), then the rest in groups of `size`. */
export function pageGroups(liveMonitorId, monitorIds, agentIds, { firstSize = 50, size = 500 } = {}) {
  const item = (type) => (id) => ({ type, id });
  const groups = [
    { name: 'Core services', collapsed: false, items: [liveMonitorId, ...monitorIds.slice(0, firstSize - 1)].map(item('monitor')) },
  ];
  const rest = monitorIds.slice(firstSize - 1);
  for (let at = 0; at < rest.length; at += size) {
    groups.push({ name: `Region ${groups.length}`, collapsed: false, items: rest.slice(at, at + size).map(item('monitor')) });
  }
  for (let at = 0; at < agentIds.length; at += size) {
    groups.push({ name: `Servers ${at / size + 1}`, collapsed: false, items: agentIds.slice(at, at + size).map(item('agent')) });
  }
  return groups;
}

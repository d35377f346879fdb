import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each first type's own settings and the column it had, by the spec's field name. Frozen here: the migration must
 * move what the schema held then, whatever the type specs say later.
 */
const OWN_COLUMNS: Record<string, Array<[setting: string, column: string]>> = {
  http: [
    ['ignoreTls', 'ignore_tls'],
    ['maxRedirects', 'max_redirects'],
  ],
  ping: [['packetCount', 'packet_count']],
  dns: [
    ['dnsRecordType', 'dns_record_type'],
    ['dnsServer', 'dns_server'],
  ],
  tls: [['ignoreTls', 'ignore_tls']],
  websocket: [
    ['message', 'message'],
    ['ignoreTls', 'ignore_tls'],
  ],
  grpc: [
    ['grpcService', 'grpc_service'],
    ['tls', 'tls'],
    ['ignoreTls', 'ignore_tls'],
  ],
  postgres: [
    ['connectionString', 'connection_string'],
    ['query', 'query'],
  ],
  mysql: [
    ['connectionString', 'connection_string'],
    ['query', 'query'],
  ],
  redis: [
    ['connectionString', 'connection_string'],
    ['query', 'query'],
  ],
  group: [
    ['groupRule', 'group_rule'],
    ['groupMin', 'group_min'],
  ],
};
const FIRST_TYPES = ['http', 'tcp', 'ping', 'dns', 'tls', 'push', 'websocket', 'grpc', 'postgres', 'mysql', 'redis', 'group'];
const SETTINGS = [...new Set(Object.values(OWN_COLUMNS).flatMap((pairs) => pairs.map(([setting]) => setting)))];

/** The columns as issue 16 and the group monitors made them (down puts them back the same). */
const COLUMN_DEFINITIONS = [
  'packet_count integer',
  'dns_record_type varchar(8)',
  'dns_server varchar(260)',
  'message text',
  'grpc_service varchar(200)',
  'tls boolean',
  'connection_string text',
  'query text',
  'ignore_tls boolean NOT NULL DEFAULT false',
  'max_redirects integer NOT NULL DEFAULT 5',
  "group_rule varchar(8) CHECK (group_rule IN ('any', 'all', 'atLeast'))",
  'group_min integer CHECK (group_min BETWEEN 1 AND 1000)',
];
const COLUMNS = COLUMN_DEFINITIONS.map((definition) => definition.split(' ')[0]);
/** How each column reads its setting back. */
const CASTS: Record<string, string> = {
  packet_count: 'integer',
  max_redirects: 'integer',
  group_min: 'integer',
  tls: 'boolean',
  ignore_tls: 'boolean',
};

/**
 * Issue 33, one type spec: the first types' own settings join the added types' in `settings` (their spec's field
 * names), so every type is stored, validated and read by one path and the twelve columns go. The shared columns SQL
 * reads stay (hostname, port, url, cert_expiry_days, push_token with its index: docs/decisions.md).
 */
export class FirstTypeSettings1765730000000 implements MigrationInterface {
  name = 'FirstTypeSettings1765730000000';

  async up(db: QueryRunner): Promise<void> {
    const cases = Object.entries(OWN_COLUMNS).map(
      ([type, pairs]) => `WHEN '${type}' THEN jsonb_build_object(${pairs.map(([setting, column]) => `'${setting}', ${column}`).join(', ')})`,
    );
    await db.query(`UPDATE monitors SET settings = settings || jsonb_strip_nulls(CASE type ${cases.join(' ')} ELSE '{}' END)`);
    await db.query(`ALTER TABLE monitors ${COLUMNS.map((column) => `DROP COLUMN ${column}`).join(', ')}`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE monitors ${COLUMN_DEFINITIONS.map((definition) => `ADD COLUMN ${definition}`).join(', ')}`);
    const types = FIRST_TYPES.map((type) => `'${type}'`).join(', ');
    for (const [type, pairs] of Object.entries(OWN_COLUMNS)) {
      const sets = pairs.map(([setting, column]) => {
        const value = CASTS[column] ? `(settings->>'${setting}')::${CASTS[column]}` : `settings->>'${setting}'`;
        return `${column} = ${column === 'ignore_tls' || column === 'max_redirects' ? `coalesce(${value}, ${column})` : value}`;
      });
      await db.query(`UPDATE monitors SET ${sets.join(', ')} WHERE type = $1`, [type]);
    }
    // The added types' settings keep their names: only the first types' rows give theirs back.
    await db.query(`UPDATE monitors SET settings = settings - $1::text[] WHERE type IN (${types})`, [SETTINGS]);
  }
}

import { MESSAGES, SECRET_MASK as M, type MessageCode } from '@vigil/proto';
import { toMonitorDto } from './monitor.mapper';
import { createFields, newPushToken, updateFields } from './monitor-fields';
import { HTTP_TYPE_COLUMNS } from './monitor-fixtures.testing';
import type { MonitorRow } from './monitor.types';
import type { CreateMonitorDto, UpdateMonitorDto } from './monitors.dto';

const NOW = new Date('2026-01-01T00:00:00Z');
const create = (body: Partial<CreateMonitorDto>) => createFields({ name: 'm', ...body } as CreateMonitorDto, NOW);

function refusal(run: () => unknown): MessageCode | null {
  try {
    run();
    return null;
  } catch (error) {
    const message = (error as { getResponse(): { message: string } }).getResponse().message;
    return Object.entries(MESSAGES).find(([, text]) => text === message)?.[0] as MessageCode;
  }
}

function stored(fields: ReturnType<typeof create>, overrides: Partial<MonitorRow> = {}): MonitorRow {
  return {
    ...HTTP_TYPE_COLUMNS,
    id: 1,
    key: 'api',
    name: fields.name,
    url: fields.url,
    method: fields.method,
    interval_s: fields.interval,
    timeout_s: fields.timeout,
    expected_status: fields.expectedStatus,
    headers: fields.headers,
    body: fields.body,
    active: true,
    retries: fields.retries,
    retry_interval_s: fields.retryInterval,
    status: 'up',
    consecutive_failures: 0,
    response_time: null,
    last_checked: null,
    next_check_at: null,
    created_at: NOW,
    type: fields.type,
    hostname: fields.hostname,
    port: fields.port,
    settings: fields.settings,
    push_token: fields.pushToken,
    assertions: fields.assertions,
    ...overrides,
  };
}

describe('createFields', () => {
  it.each<[string, Partial<CreateMonitorDto>, string]>([
    ['http keeps its url', { url: 'https://example.com/health' }, 'https://example.com/health'],
    ['tcp', { type: 'tcp', hostname: 'db', port: 5432 }, 'tcp://db:5432'],
    ['tcp on IPv6', { type: 'tcp', hostname: '::1', port: 22 }, 'tcp://[::1]:22'],
    ['tls on its default port', { type: 'tls', hostname: 'example.com' }, 'tls://example.com:443'],
    ['ping', { type: 'ping', hostname: '127.0.0.1' }, 'ping://127.0.0.1'],
    ['dns', { type: 'dns', hostname: 'example.com', dnsRecordType: 'MX' }, 'dns://example.com?type=MX'],
    ['push', { type: 'push' }, 'push://heartbeat'],
    ['websocket keeps its url', { type: 'websocket', url: 'wss://example.com/ws' }, 'wss://example.com/ws'],
    ['grpc', { type: 'grpc', hostname: 'api', port: 50051 }, 'grpc://api:50051'],
    ['postgres without credentials', { type: 'postgres', connectionString: 'postgres://u:secret@db/app' }, 'postgres://db:5432'],
    ['mysql on its port', { type: 'mysql', connectionString: 'mysql://root@127.0.0.1:3307/test' }, 'mysql://127.0.0.1:3307'],
    ['redis', { type: 'redis', connectionString: 'redis://:pw@cache' }, 'redis://cache:6379'],
  ])('keeps a readable url for %s', (_case, body, url) => {
    expect(create(body).url).toBe(url);
  });

  it('fills the type defaults into its settings and leaves the fields of other types out', () => {
    expect(create({ type: 'ping', hostname: 'h', port: 80, connectionString: 'redis://x' } as Partial<CreateMonitorDto>)).toMatchObject({
      type: 'ping',
      port: null,
      settings: { packetCount: 3 },
      certExpiryDays: [14],
      assertions: [],
      pushToken: null,
    });
    expect(create({ type: 'ping', hostname: 'h' }).settings).toEqual({ packetCount: 3 });
    expect(create({ type: 'dns', hostname: 'h' }).settings).toEqual({ dnsRecordType: 'A' });
    expect(create({ type: 'tcp', hostname: 'h', port: 1 }).settings).toEqual({});
    expect(create({ url: 'https://e.com', certExpiryDays: [7, 21, 7] })).toMatchObject({
      certExpiryDays: [21, 7],
      settings: { ignoreTls: false, maxRedirects: 5 },
    });
  });

  it("reads a first type's settings at the top level, null (ignore_tls false) for the fields of other types", () => {
    const read = toMonitorDto(stored(create({ type: 'dns', hostname: 'h', dnsServer: '1.1.1.1' })));
    expect(read).toMatchObject({ dns_record_type: 'A', dns_server: '1.1.1.1', packet_count: null, ignore_tls: false, settings: {} });
    expect(read).toMatchObject({ max_redirects: null, connection_string: null, query: null, tls: null, group_rule: null });
  });

  it('clears a nullable setting sent as null and puts a default back', () => {
    const dns = stored(create({ type: 'dns', hostname: 'h', dnsServer: '1.1.1.1', dnsRecordType: 'MX' }));
    expect(updateFields(dns, { dnsServer: null } as UpdateMonitorDto).settings).toEqual({ dnsRecordType: 'MX' });
    expect(updateFields(dns, { name: 'x' } as UpdateMonitorDto).settings).toBeUndefined();
  });

  it('takes expected_status as expectedStatus, the latter winning', () => {
    expect(create({ url: 'https://e.com', expected_status: 404 }).expectedStatus).toBe(404);
    expect(create({ url: 'https://e.com', expected_status: 404, expectedStatus: 3 }).expectedStatus).toBe(3);
  });

  it('gives a push monitor a fresh url-safe token and starts its wait', () => {
    const fields = create({ type: 'push' });
    expect(fields.pushToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(fields.pushAwaitedSince).toEqual(NOW);
    expect(create({ type: 'push' }).pushToken).not.toBe(fields.pushToken);
    expect(newPushToken()).toHaveLength(32);
  });

  it('keeps the token of a monitor moved from Uptime Kuma', () => {
    const token = 'k'.repeat(32);
    expect(create({ type: 'push', pushToken: token }).pushToken).toBe(token);
    expect(create({ type: 'tcp', hostname: 'h', port: 1, pushToken: token }).pushToken).toBeNull();
  });

  it('refuses a masked secret on a new monitor', () => {
    expect(refusal(() => create({ type: 'redis', connectionString: M }))).toBe('monitors.connectionStringReenter');
    expect(refusal(() => create({ type: 'postgres', connectionString: `postgres://${M}@db/app` }))).toBe(
      'monitors.connectionStringReenter',
    );
  });
});

describe('updateFields', () => {
  const postgres = stored(create({ type: 'postgres', connectionString: 'postgres://app:s3cret@db:5432/app' }));

  it('masks the connection string in reads and keeps it when the mask comes back', () => {
    const read = toMonitorDto(postgres);
    expect(read.connection_string).toBe(`postgres://${M}@db:5432/app`);
    expect(JSON.stringify(read)).not.toContain('s3cret');
    expect(updateFields(postgres, { connectionString: read.connection_string! } as UpdateMonitorDto).settings?.connectionString).toBe(
      'postgres://app:s3cret@db:5432/app',
    );
    expect(updateFields(postgres, { connectionString: M } as UpdateMonitorDto).settings?.connectionString).toBe(
      'postgres://app:s3cret@db:5432/app',
    );
  });

  it.each([
    ['another host', `postgres://${M}@other:5432/app`],
    ['another database', `postgres://${M}@db:5432/other`],
    ['another port', `postgres://${M}@db:6543/app`],
  ])('refuses the masked connection string for %s', (_case, connectionString) => {
    expect(refusal(() => updateFields(postgres, { connectionString } as UpdateMonitorDto))).toBe('monitors.connectionStringReenter');
  });

  it('refuses the mask when the type changes to another database', () => {
    expect(refusal(() => updateFields(postgres, { type: 'mysql', connectionString: M } as UpdateMonitorDto))).toBe(
      'monitors.connectionStringReenter',
    );
  });

  it('takes a new connection string and its host for the target', () => {
    const fields = updateFields(postgres, { connectionString: 'postgres://app:new@db2/app' } as UpdateMonitorDto);
    expect(fields).toMatchObject({ hostname: 'db2', port: 5432, url: 'postgres://db2:5432' });
  });

  it('judges a connection string and a redis command against the stored type when the edit names none', () => {
    expect(refusal(() => updateFields(postgres, { connectionString: 'postgres://db/app?sslcert=/x' } as UpdateMonitorDto))).toBe(
      'monitors.connectionStringUnusable',
    );
    expect(refusal(() => updateFields(postgres, { connectionString: 'redis://db' } as UpdateMonitorDto))).toBe(
      'monitors.connectionStringInvalid',
    );
    const redis = stored(create({ type: 'redis', connectionString: 'redis://cache', query: 'INFO' }));
    expect(refusal(() => updateFields(redis, { query: 'CONFIG SET x y' } as UpdateMonitorDto))).toBe('monitors.redisCommandNotAllowed');
    expect(updateFields(redis, { query: 'llen queue' } as UpdateMonitorDto).settings?.query).toBe('llen queue');
    expect(updateFields(postgres, { query: 'SET x = 1' } as UpdateMonitorDto).settings?.query).toBe('SET x = 1');
  });

  it.each<[string, Partial<UpdateMonitorDto>, MessageCode]>([
    ['tcp without its port', { type: 'tcp', hostname: 'db' }, 'monitors.portInvalid'],
    ['tcp without its hostname', { type: 'tcp', port: 1 }, 'monitors.hostnameRequired'],
    ['http without a url', { type: 'http' }, 'monitors.urlRequired'],
    ['redis without a connection string', { type: 'redis' }, 'monitors.connectionStringRequired'],
  ])('requires the new type’s fields when the type changes: %s', (_case, body, code) => {
    expect(refusal(() => updateFields(postgres, body as UpdateMonitorDto))).toBe(code);
  });

  it('rebuilds the per-type fields on a type change and keeps the rest', () => {
    const fields = updateFields(postgres, { type: 'tcp', hostname: 'db', port: 5432 } as UpdateMonitorDto);
    expect(fields).toMatchObject({ type: 'tcp', url: 'tcp://db:5432', settings: {}, pushToken: null });
    expect(fields.name).toBeUndefined();
    expect(fields.interval).toBeUndefined();
  });

  it('judges a url against the stored type when the edit names none', () => {
    const ws = stored(create({ type: 'websocket', url: 'wss://example.com/ws' }));
    expect(refusal(() => updateFields(ws, { url: 'https://example.com' } as UpdateMonitorDto))).toBe('monitors.websocketUrlInvalid');
    const http = stored(create({ url: 'https://example.com' }));
    expect(refusal(() => updateFields(http, { url: 'ws://example.com' } as UpdateMonitorDto))).toBe('monitors.urlInvalid');
  });

  it('judges assertions against the stored type', () => {
    const tcp = stored(create({ type: 'tcp', hostname: 'db', port: 1 }));
    const body = { assertions: [{ source: 'status', operator: 'eq', value: 200 }] } as UpdateMonitorDto;
    expect(refusal(() => updateFields(tcp, body))).toBe('monitors.assertionSourceNotForType');
  });

  it('leaves the target alone on an edit that does not touch it (no re-check)', () => {
    const tcp = stored(create({ type: 'tcp', hostname: 'db', port: 1 }));
    const fields = updateFields(tcp, { name: 'renamed' } as UpdateMonitorDto);
    expect(fields.url).toBeUndefined();
    expect(fields.hostname).toBeUndefined();
  });

  it('restarts a push monitor’s wait when it is resumed by an edit', () => {
    const push = stored(create({ type: 'push' }), { active: false });
    expect(updateFields(push, { active: true } as UpdateMonitorDto, NOW).pushAwaitedSince).toEqual(NOW);
    expect(updateFields({ ...push, active: true }, { active: true } as UpdateMonitorDto, NOW).pushAwaitedSince).toBeUndefined();
  });

  it('moves the readable target with the hostname, port or record type', () => {
    const dns = stored(create({ type: 'dns', hostname: 'example.com' }));
    expect(updateFields(dns, { dnsRecordType: 'TXT' } as UpdateMonitorDto).url).toBe('dns://example.com?type=TXT');
  });
});

import { jsonPathOf, mapMonitor, statusRule } from './kuma-monitors';

const base = { id: 7, name: 'M', active: 1, interval: 60, maxretries: 0, retry_interval: 60, url: 'https://', upside_down: 0 };
const http = {
  ...base,
  type: 'http',
  url: 'https://example.com',
  method: 'get',
  accepted_statuscodes_json: '["200-299"]',
  maxredirects: 10,
};

describe('mapMonitor', () => {
  it.each([
    [
      'http with method, body and Basic auth',
      { ...http, method: 'post', body: '{}', auth_method: 'basic', basic_auth_user: 'u', basic_auth_pass: 'p', headers: '{"X-A":"1"}' },
      {
        type: 'http',
        method: 'POST',
        body: '{}',
        expectedStatus: 2,
        headers: { 'X-A': '1', Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` },
      },
    ],
    ['http with a bearer token', { ...http, auth_method: 'bearer', bearer_token: 'tok' }, { headers: { Authorization: 'Bearer tok' } }],
    ['ignore TLS and redirects', { ...http, ignore_tls: 1, maxredirects: 3 }, { ignoreTls: true, maxRedirects: 3 }],
    [
      'keyword',
      { ...http, type: 'keyword', keyword: 'Hi' },
      { type: 'http', assertions: [{ source: 'body', operator: 'contains', value: 'Hi' }] },
    ],
    [
      'inverted keyword',
      { ...http, type: 'keyword', keyword: 'Err', invert_keyword: 1 },
      { assertions: [{ source: 'body', operator: 'notContains', value: 'Err' }] },
    ],
    [
      'json-query of 1.23 (no operator)',
      { ...http, type: 'json-query', json_path: 'status', expected_value: 'ok' },
      {
        type: 'http',
        assertions: [{ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' }],
      },
    ],
    [
      'json-query with an operator',
      { ...http, type: 'json-query', json_path: '$.data.count', json_path_operator: '>=', expected_value: '3' },
      {
        assertions: [{ source: 'jsonPath', path: '$.data.count', operator: 'gte', value: '3' }],
      },
    ],
    ['push keeps a 10-character token', { ...base, type: 'push', push_token: 'Ab3dE6gH9k' }, { type: 'push', pushToken: 'Ab3dE6gH9k' }],
    ['port', { ...base, type: 'port', hostname: 'db', port: 5432 }, { type: 'tcp', hostname: 'db', port: 5432 }],
    ['ping', { ...base, type: 'ping', hostname: 'r1', ping_count: 4 }, { type: 'ping', hostname: 'r1', packetCount: 4 }],
    [
      'dns',
      { ...base, type: 'dns', hostname: 'example.com', dns_resolve_type: 'MX', dns_resolve_server: '1.1.1.1' },
      {
        type: 'dns',
        dnsRecordType: 'MX',
        dnsServer: '1.1.1.1',
      },
    ],
    [
      'postgres',
      { ...base, type: 'postgres', database_connection_string: 'postgres://u:p@h/db', database_query: 'SELECT 1' },
      {
        type: 'postgres',
        connectionString: 'postgres://u:p@h/db',
        query: 'SELECT 1',
      },
    ],
    [
      'grpc-keyword',
      { ...base, type: 'grpc-keyword', grpc_url: 'h:50051', grpc_service_name: 'Health', grpc_enable_tls: 1, keyword: 'SERVING' },
      {
        type: 'grpc',
        hostname: 'h',
        port: 50051,
        grpcService: 'Health',
        tls: true,
        assertions: [{ source: 'body', operator: 'contains', value: 'SERVING' }],
      },
    ],
    [
      'mqtt splits the scheme off',
      { ...base, type: 'mqtt', hostname: 'wss://broker', port: 443, mqtt_topic: 't/#', mqtt_password: 'x' },
      {
        type: 'mqtt',
        mqttProtocol: 'wss',
        hostname: 'broker',
        mqttTopic: 't/#',
        mqttPassword: 'x',
        mqttCheckType: 'keyword',
      },
    ],
    ["smtp with Kuma's empty security", { ...base, type: 'smtp', hostname: 'mx', port: 25 }, { type: 'smtp', smtpSecurity: 'starttls' }],
    [
      'ntp thresholds',
      { ...base, type: 'ntp', hostname: 'pool', ntp_stratum_threshold: 4 },
      {
        assertions: [
          { source: 'stratum', operator: 'lte', value: 4 },
          { source: 'offset', operator: 'lte', value: 1000 },
          { source: 'rootDispersion', operator: 'lte', value: 500 },
        ],
      },
    ],
    ['real-browser', { ...http, type: 'real-browser' }, { type: 'browser', url: 'https://example.com' }],
    ['group', { ...base, type: 'group' }, { type: 'group' }],
    ['paused', { ...http, active: 0 }, { active: false }],
    [
      'retries, retry interval and timeout',
      { ...http, maxretries: 3, retry_interval: 20, timeout: 48 },
      { retries: 3, retryInterval: 20, timeout: 48 },
    ],
  ])('maps %s', (_name, row, expected) => {
    const sut = mapMonitor(row);
    expect(sut.skip).toBeUndefined();
    expect(sut.monitor).toMatchObject({ key: 'kuma-7', name: 'M', ...expected });
  });

  it.each([
    ['an unsupported type', { ...base, type: 'gamedig' }, 'unsupportedType'],
    ['a docker monitor (needs an agent)', { ...base, type: 'docker', docker_container: 'web' }, 'needsAgent'],
    ['a JSONata expression', { ...http, type: 'json-query', json_path: '$sum(items.price)', expected_value: '3' }, 'unsupportedValue'],
    ['NTLM authentication', { ...http, auth_method: 'ntlm' }, 'unsupportedValue'],
    ['accepted codes it cannot read', { ...http, accepted_statuscodes_json: '["2xx"]' }, 'unsupportedValue'],
  ])('skips %s', (_name, row, reason) => {
    expect(mapMonitor(row).skip?.reason).toBe(reason);
  });

  it('keeps the description and upside-down mode of a checked monitor', () => {
    const sut = mapMonitor({ ...http, upside_down: 1, description: '  Public API behind the CDN  ' });
    expect(sut.monitor).toMatchObject({ upsideDown: true, description: 'Public API behind the CDN' });
    expect(sut.notes).toEqual([]);
  });

  it('imports a group that Kuma turned upside down without the mode, noted', () => {
    const sut = mapMonitor({ id: 9, name: 'G', type: 'group', active: 1, upside_down: 1 });
    expect(sut.monitor).not.toHaveProperty('upsideDown');
    expect(sut.notes).toEqual(['upside down not kept: a group monitor is not checked']);
  });

  it('cuts a description longer than ours, noted', () => {
    const sut = mapMonitor({ ...http, description: 'd'.repeat(2100) });
    expect(sut.monitor?.description).toHaveLength(2000);
    expect(sut.notes).toEqual(['description cut to 2000 characters']);
  });

  it('leaves a Kuma timeout of 0 (its default) to ours', () => {
    expect(mapMonitor({ ...http, timeout: 0 }).monitor).not.toHaveProperty('timeout');
  });

  it('keeps the first rule of accepted codes across classes and says so', () => {
    const sut = mapMonitor({ ...http, accepted_statuscodes_json: '["200-299","404"]' });
    expect(sut.monitor).toMatchObject({ expectedStatus: 2 });
    expect(sut.notes).toContain('accepted status codes 200-299, 404 → 200-299');
  });

  it('clamps an interval below ours and says so', () => {
    const sut = mapMonitor({ ...http, interval: 5 });
    expect(sut.monitor?.interval).toBe(10);
    expect(sut.notes).toContain('interval 5 s → 10 s');
  });
});

describe('statusRule', () => {
  it.each([
    [[], { expectedStatus: 2, assertions: [] }],
    [['200-299'], { expectedStatus: 2, assertions: [] }],
    [['301'], { expectedStatus: 301, assertions: [] }],
    [['200-299', '301'], null],
    [['300-399', '200-299'], null],
    [['200-204'], { expectedStatus: 2, assertions: [{ source: 'status', operator: 'matches', value: '^(200|201|202|203|204)$' }] }],
    [['200', '204'], { expectedStatus: 2, assertions: [{ source: 'status', operator: 'matches', value: '^(200|204)$' }] }],
  ])('reads %j', (codes, expected) => {
    expect(statusRule(codes)).toEqual(expected);
  });
});

describe('jsonPathOf', () => {
  it.each([
    ['status', '$.status'],
    ['$.data.items[0].name', '$.data.items[0].name'],
    ['$count(items)', null],
    ['items[price > 3]', null],
  ])('reads %s', (expression, path) => {
    expect(jsonPathOf(expression)).toBe(path);
  });
});

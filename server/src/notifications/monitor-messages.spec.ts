import { SECRET_MASK as M, type MonitorStatus } from '@vigil/proto';
import { monitorRow } from '../monitors/monitor-fixtures.testing';
import { toMonitorDto } from '../monitors/monitor.mapper';
import type { MonitorRow } from '../monitors/monitor.types';
import { buildMessage, monitorVars } from './messages';
import { defaultTemplates, type Language } from './templates';

const AT = new Date('2026-11-23T08:15:02.345Z');
const TIME = '2026-11-23 08:15:02 UTC';

/** A stored monitor row; the message is built from its read, as the `monitor.status_changed` event carries it. */
const row = (overrides: Partial<MonitorRow>): MonitorRow =>
  monitorRow({
    id: 7,
    name: 'API',
    url: 'https://ops:hunter2@api.example.com/health?token=abc123',
    retries: 0,
    status: 'down',
    consecutive_failures: 1,
    ...overrides,
  });

const SECRETS = /hunter2|abc123|s3cret|wsToken/;

function message(event: 'monitor.down' | 'monitor.recovery', language: Language, stored: MonitorRow, error: string | null) {
  const monitor = toMonitorDto(stored);
  const [previous, status]: MonitorStatus[] = event === 'monitor.down' ? ['up', 'down'] : ['down', 'up'];
  const check = { status_code: null, response_time: 42, error };
  return buildMessage(
    event,
    language,
    monitorVars(monitor, check, previous, status),
    { kind: 'monitor', id: 7, name: 'API' },
    AT,
    monitor.type,
  );
}

describe('monitor messages of an HTTP monitor', () => {
  const http = row({});
  const down = (language: Language) =>
    buildMessage(
      'monitor.down',
      language,
      monitorVars(
        toMonitorDto(http),
        { status_code: 503, response_time: 120, error: 'Unexpected status 503 (expected 200)' },
        'up',
        'down',
      ),
      { kind: 'monitor', id: 7, name: 'API' },
      AT,
      'http',
    );

  it.each([
    [
      'en-US',
      [
        'API is down.',
        `URL: https://${M}@api.example.com/health?token=${M}`,
        'Status code: 503 (expected 200)',
        'Error: Unexpected status 503 (expected 200)',
        'Previous status: up',
        `Time: ${TIME}`,
      ],
    ],
    [
      'zh-CN',
      [
        'API 无法访问。',
        `地址：https://${M}@api.example.com/health?token=${M}`,
        '状态码：503（期望 200）',
        '错误：Unexpected status 503 (expected 200)',
        '之前状态：up',
        `时间：${TIME}`,
      ],
    ],
  ] as const)('keeps the URL and status code text, credentials masked (%s)', (language, lines) => {
    const sut = down(language);
    expect(sut.text).toBe(lines.join('\n'));
    expect(sut.text).not.toMatch(SECRETS);
  });
});

/** One monitor of each other type family, with the target a person reads in the monitor list. */
const OTHER_TYPES = [
  [
    'tcp',
    row({ type: 'tcp', url: 'tcp://db.internal:5432', hostname: 'db.internal', port: 5432 }),
    'db.internal:5432',
    'db.internal:5432',
    'TCP port',
    'TCP 端口',
  ],
  [
    'tls',
    row({ type: 'tls', url: 'tls://shop.example.com:443', hostname: 'shop.example.com', port: 443 }),
    'shop.example.com:443',
    'shop.example.com:443',
    'TLS certificate',
    'TLS 证书',
  ],
  [
    'grpc',
    row({ type: 'grpc', url: 'grpc://api.internal:50051', hostname: 'api.internal', port: 50051 }),
    'api.internal:50051',
    'api.internal:50051',
    'gRPC',
    'gRPC',
  ],
  [
    'ping',
    row({ type: 'ping', url: 'ping://192.0.2.1', hostname: '192.0.2.1', settings: { packetCount: 3 } }),
    '192.0.2.1',
    '192.0.2.1',
    'Ping',
    'Ping',
  ],
  [
    'dns',
    row({ type: 'dns', url: 'dns://example.com?type=MX', hostname: 'example.com', settings: { dnsRecordType: 'MX' } }),
    'example.com MX',
    'example.com MX',
    'DNS',
    'DNS',
  ],
  ['push', row({ type: 'push', url: 'push://heartbeat', push_token: 'tok' }), 'heartbeat', '心跳', 'Push', '推送'],
  [
    'websocket',
    row({ type: 'websocket', url: 'wss://feed.example.com/ws?token=wsToken' }),
    `wss://feed.example.com/ws?token=${M}`,
    `wss://feed.example.com/ws?token=${M}`,
    'WebSocket',
    'WebSocket',
  ],
  [
    'postgres',
    row({
      type: 'postgres',
      url: 'postgres://db.internal:5432',
      hostname: 'db.internal',
      port: 5432,
      settings: { connectionString: 'postgres://vigil:s3cret@db.internal:5432/app' },
    }),
    'db.internal:5432',
    'db.internal:5432',
    'PostgreSQL',
    'PostgreSQL',
  ],
  [
    'mysql',
    row({
      type: 'mysql',
      url: 'mysql://db.internal:3306',
      hostname: 'db.internal',
      port: 3306,
      settings: { connectionString: 'mysql://root:s3cret@db.internal:3306/app' },
    }),
    'db.internal:3306',
    'db.internal:3306',
    'MySQL / MariaDB',
    'MySQL / MariaDB',
  ],
  [
    'redis',
    row({
      type: 'redis',
      url: 'redis://cache:6379',
      hostname: 'cache',
      port: 6379,
      settings: { connectionString: 'redis://:s3cret@cache:6379/0' },
    }),
    'cache:6379',
    'cache:6379',
    'Redis',
    'Redis',
  ],
] as const;

describe('monitor messages of the other types', () => {
  const error = 'Connection refused; responseTime lt 500 failed: got 812';

  it.each(OTHER_TYPES)('a %s monitor down names its type and target, not a status code (en-US)', (_, stored, target, __, type) => {
    const sut = message('monitor.down', 'en-US', stored, error);
    expect(sut.subject).toBe('[Down] API');
    expect(sut.text).toBe(
      ['API is down.', `Type: ${type}`, `Target: ${target}`, `Error: ${error}`, 'Previous status: up', `Time: ${TIME}`].join('\n'),
    );
    expect(sut.text).not.toMatch(SECRETS);
  });

  it.each(OTHER_TYPES)('a %s monitor down names its type and target, not a status code (zh-CN)', (_, stored, __, target, ___, type) => {
    const sut = message('monitor.down', 'zh-CN', stored, error);
    expect(sut.subject).toBe('[故障] API');
    expect(sut.text).toBe(
      ['API 无法访问。', `类型：${type}`, `目标：${target}`, `错误：${error}`, '之前状态：up', `时间：${TIME}`].join('\n'),
    );
    expect(sut.text).not.toMatch(SECRETS);
  });

  it.each(OTHER_TYPES)(
    'a %s monitor recovering names its type, target and response time',
    (_, stored, enTarget, zhTarget, enType, zhType) => {
      const en = message('monitor.recovery', 'en-US', stored, null);
      expect(en).toMatchObject({ subject: '[Recovered] API', severity: 'recovery' });
      expect(en.text).toBe(
        ['API is up again.', `Type: ${enType}`, `Target: ${enTarget}`, 'Response time: 42 ms', `Time: ${TIME}`].join('\n'),
      );
      const zh = message('monitor.recovery', 'zh-CN', stored, null);
      expect(zh.subject).toBe('[恢复] API');
      expect(zh.text).toBe(['API 已恢复。', `类型：${zhType}`, `目标：${zhTarget}`, '响应时间：42 ms', `时间：${TIME}`].join('\n'));
      expect(en.text + zh.text).not.toMatch(SECRETS);
    },
  );

  it('keeps the HTTP variables for templates that use them', () => {
    const [, tcp] = OTHER_TYPES[0];
    expect(monitorVars(toMonitorDto(tcp), { status_code: null, response_time: null, error }, 'up', 'down')).toMatchObject({
      url: 'tcp://db.internal:5432',
      status_code: null,
      expected_status: 200,
      target: 'db.internal:5432',
      type: { 'en-US': 'TCP port', 'zh-CN': 'TCP 端口' },
    });
  });
});

describe('defaultTemplates', () => {
  it('lists the HTTP text and the other types’ text of each monitor event in both languages', () => {
    const down = defaultTemplates().filter((template) => template.type === 'monitor.down');
    expect(down.map((template) => template.name)).toEqual([
      'monitor.down (HTTP, zh-CN)',
      'monitor.down (HTTP, en-US)',
      'monitor.down (other types, zh-CN)',
      'monitor.down (other types, en-US)',
    ]);
    expect(down[1].content).toContain('Status code: {{status_code}} (expected {{expected_status}})');
    expect(down[3].content).toContain('Target: {{target}}');
    expect(down[3].content).not.toContain('{{status_code}}');
  });

  it('gives every template a distinct id', () => {
    const ids = defaultTemplates().map((template) => template.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

import type { MonitorType } from '@vigil/proto';
import type { TargetRow } from './check-target';
import { toCheckTarget } from './targets';

const row = (type: MonitorType, extra: Partial<TargetRow> = {}): TargetRow => ({
  id: 7,
  type,
  url: 'https://example.com/',
  method: 'GET',
  headers: {},
  body: null,
  timeout_s: 10,
  expected_status: 200,
  interval_s: 60,
  retry_interval_s: 20,
  hostname: 'db.lan',
  port: null,
  assertions: [],
  outbound_scope: 'user',
  settings: {},
  ...extra,
});

describe('toCheckTarget', () => {
  it.each<[string, TargetRow, object]>([
    ['http with its defaults', row('http'), { type: 'http', url: 'https://example.com/', ignoreTls: false, maxRedirects: 5 }],
    ['http with its settings', row('http', { settings: { ignoreTls: true, maxRedirects: 0 } }), { ignoreTls: true, maxRedirects: 0 }],
    ['tcp without a port', row('tcp'), { type: 'tcp', hostname: 'db.lan', port: 0 }],
    ['ping with its default count', row('ping'), { type: 'ping', hostname: 'db.lan', packetCount: 3 }],
    ['dns with the system resolver', row('dns'), { type: 'dns', dnsRecordType: 'A', dnsServer: null }],
    [
      'dns with its server',
      row('dns', { settings: { dnsRecordType: 'MX', dnsServer: '1.1.1.1' } }),
      { dnsRecordType: 'MX', dnsServer: '1.1.1.1' },
    ],
    ['tls on 443', row('tls'), { type: 'tls', port: 443, ignoreTls: false }],
    ['push with its rhythm', row('push'), { type: 'push', interval: 60, retryInterval: 20 }],
    ['websocket without a message', row('websocket', { url: 'wss://e.com' }), { type: 'websocket', url: 'wss://e.com', message: null }],
    ['grpc with its defaults', row('grpc', { port: 50051 }), { type: 'grpc', port: 50051, grpcService: '', tls: false, ignoreTls: false }],
    ['redis', row('redis', { settings: { connectionString: 'redis://c' } }), { type: 'redis', connectionString: 'redis://c', query: null }],
    ['postgres without a string', row('postgres'), { type: 'postgres', connectionString: '', query: null }],
    ['a group', row('group'), { type: 'group' }],
    [
      'an added type: the shared columns and its settings',
      row('mqtt', { port: 1883, settings: { mqttTopic: 'a/b' } }),
      { type: 'mqtt', hostname: 'db.lan', port: 1883, url: 'https://example.com/', settings: { mqttTopic: 'a/b' } },
    ],
  ])('builds %s', (_case, sut, expected) => {
    expect(toCheckTarget(sut)).toMatchObject({ id: 7, timeout: 10, assertions: [], scope: 'user', ...expected });
  });
});

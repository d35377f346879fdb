import { ArgumentMetadata } from '@nestjs/common';
import { MESSAGES, SECRET_MASK, type MessageCode } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { CreateMonitorDto, ListMonitorsQuery, TestMonitorDto, UpdateMonitorDto } from './monitors.dto';

const pipe = createValidationPipe();
const validate = (metatype: ArgumentMetadata['metatype'], value: unknown, type: ArgumentMetadata['type'] = 'body') =>
  pipe.transform(value, { type, metatype });

async function codeOf(
  metatype: ArgumentMetadata['metatype'],
  value: unknown,
  type: ArgumentMetadata['type'] = 'body',
): Promise<MessageCode | null> {
  try {
    await validate(metatype, value, type);
    return null;
  } catch (error) {
    const message = (error as { getResponse(): { message: string } }).getResponse().message;
    return (Object.entries(MESSAGES).find(([, text]) => text === message)?.[0] ?? message) as MessageCode;
  }
}

const name = 'm';

describe('monitor DTO validation per type', () => {
  it.each<[string, Record<string, unknown>, MessageCode | null]>([
    // http (the default type): as before issue 16
    ['http needs a url', { name }, 'monitors.urlRequired'],
    ['http url must be http(s)', { name, url: 'ftp://example.com' }, 'monitors.urlInvalid'],
    ['http takes ws urls nowhere', { name, url: 'ws://example.com' }, 'monitors.urlInvalid'],
    ['http ok', { name, url: 'https://example.com', ignoreTls: true, maxRedirects: 0, certExpiryDays: [21, 7] }, null],
    ['http maxRedirects bounded', { name, url: 'https://example.com', maxRedirects: 11 }, 'monitors.maxRedirectsInvalid'],
    ['http ignoreTls boolean', { name, url: 'https://example.com', ignoreTls: 'yes' }, 'monitors.ignoreTlsInvalid'],
    ['http certExpiryDays bounds', { name, url: 'https://example.com', certExpiryDays: [0] }, 'monitors.certExpiryDaysInvalid'],
    [
      'http certExpiryDays count',
      { name, url: 'https://example.com', certExpiryDays: [1, 2, 3, 4, 5, 6] },
      'monitors.certExpiryDaysInvalid',
    ],
    ['http certExpiryDays one number', { name, url: 'https://example.com', certExpiryDays: 30 }, null],
    ['unknown type', { name, type: 'gopher' }, 'monitors.typeInvalid'],
    // tcp
    ['tcp needs a hostname', { name, type: 'tcp', port: 22 }, 'monitors.hostnameRequired'],
    ['tcp needs a port', { name, type: 'tcp', hostname: 'db' }, 'monitors.portInvalid'],
    ['tcp port bounds', { name, type: 'tcp', hostname: 'db', port: 70000 }, 'monitors.portInvalid'],
    ['tcp hostname shape', { name, type: 'tcp', hostname: 'bad host', port: 22 }, 'monitors.hostnameInvalid'],
    ['tcp hostname length', { name, type: 'tcp', hostname: `${'a'.repeat(60)}.`.repeat(5), port: 22 }, 'monitors.hostnameInvalid'],
    ['tcp ok, no url needed', { name, type: 'tcp', hostname: 'db.internal', port: '5432' }, null],
    ['tcp IPv6 in brackets', { name, type: 'tcp', hostname: '[::1]', port: 22 }, null],
    // ping
    ['ping needs a hostname', { name, type: 'ping' }, 'monitors.hostnameRequired'],
    ['ping packetCount bounds', { name, type: 'ping', hostname: '127.0.0.1', packetCount: 11 }, 'monitors.packetCountInvalid'],
    ['ping ok', { name, type: 'ping', hostname: '127.0.0.1', packetCount: 5 }, null],
    // dns
    ['dns record type', { name, type: 'dns', hostname: 'example.com', dnsRecordType: 'ANY' }, 'monitors.dnsRecordTypeInvalid'],
    ['dns server host:port', { name, type: 'dns', hostname: 'example.com', dnsServer: '127.0.0.1:5353' }, null],
    ['dns server [v6]:port', { name, type: 'dns', hostname: 'example.com', dnsServer: '[::1]:53' }, null],
    ['dns server bare v6', { name, type: 'dns', hostname: 'example.com', dnsServer: '2001:db8::1' }, null],
    ['dns server port bounds', { name, type: 'dns', hostname: 'example.com', dnsServer: '1.1.1.1:0' }, 'monitors.dnsServerInvalid'],
    ['dns server shape', { name, type: 'dns', hostname: 'example.com', dnsServer: 'udp://1.1.1.1' }, 'monitors.dnsServerInvalid'],
    ['dns empty server: system', { name, type: 'dns', hostname: 'example.com', dnsRecordType: 'mx', dnsServer: '' }, null],
    // tls
    ['tls needs a hostname', { name, type: 'tls' }, 'monitors.hostnameRequired'],
    ['tls ok with the default port', { name, type: 'tls', hostname: 'example.com' }, null],
    // push
    ['push needs nothing', { name, type: 'push' }, null],
    ['push takes a migrated token', { name, type: 'push', pushToken: 'aZ09_-aZ09_-aZ09_-aZ09_-aZ09_-aZ' }, null],
    ['push token too short', { name, type: 'push', pushToken: 'short' }, 'monitors.pushTokenInvalid'],
    ['push token shape', { name, type: 'push', pushToken: 'x'.repeat(30) + '/?' }, 'monitors.pushTokenInvalid'],
    // websocket
    ['websocket needs a url', { name, type: 'websocket' }, 'monitors.urlRequired'],
    ['websocket url is ws(s)', { name, type: 'websocket', url: 'https://example.com' }, 'monitors.websocketUrlInvalid'],
    ['websocket message bound', { name, type: 'websocket', url: 'wss://e.com', message: 'x'.repeat(4097) }, 'monitors.messageTooLong'],
    ['websocket ok', { name, type: 'websocket', url: 'wss://example.com/socket', message: 'ping' }, null],
    // grpc
    ['grpc needs a port', { name, type: 'grpc', hostname: 'api' }, 'monitors.portInvalid'],
    [
      'grpc service bound',
      { name, type: 'grpc', hostname: 'api', port: 50051, grpcService: 'x'.repeat(201) },
      'monitors.grpcServiceInvalid',
    ],
    ['grpc tls boolean', { name, type: 'grpc', hostname: 'api', port: 50051, tls: 'on' }, 'monitors.tlsInvalid'],
    ['grpc ok', { name, type: 'grpc', hostname: 'api', port: 50051, grpcService: 'pkg.Svc', tls: true }, null],
    // databases: the connection string's scheme matches the type
    ['postgres needs a connection string', { name, type: 'postgres' }, 'monitors.connectionStringRequired'],
    ['postgres scheme', { name, type: 'postgres', connectionString: 'mysql://db/app' }, 'monitors.connectionStringInvalid'],
    ['postgres not a url', { name, type: 'postgres', connectionString: 'host=db user=x' }, 'monitors.connectionStringInvalid'],
    ['postgres ok', { name, type: 'postgres', connectionString: 'postgresql://u:p@db:5432/app', query: 'SELECT 1' }, null],
    ['mysql ok', { name, type: 'mysql', connectionString: 'mysql://root@127.0.0.1:3306/test' }, null],
    ['redis scheme', { name, type: 'redis', connectionString: 'postgres://db' }, 'monitors.connectionStringInvalid'],
    ['redis ok', { name, type: 'redis', connectionString: 'rediss://:secret@cache:6380/0' }, null],
    ['the mask read back passes', { name, type: 'redis', connectionString: SECRET_MASK }, null],
    ['query bound', { name, type: 'mysql', connectionString: 'mysql://db/x', query: 'x'.repeat(4097) }, 'monitors.queryTooLong'],
    // what the checkers' parser would refuse at every check is refused on save
    ['postgres without a host', { name, type: 'postgres', connectionString: 'postgres:///app' }, 'monitors.connectionStringInvalid'],
    ['postgres sslmode known', { name, type: 'postgres', connectionString: 'postgres://db/app?sslmode=verify-full' }, null],
    [
      'postgres sslmode unknown',
      { name, type: 'postgres', connectionString: 'postgres://db/app?sslmode=maybe' },
      'monitors.connectionStringUnusable',
    ],
    [
      'postgres host parameter',
      { name, type: 'postgres', connectionString: 'postgres://db/app?host=/tmp' },
      'monitors.connectionStringUnusable',
    ],
    ['mysql file parameter', { name, type: 'mysql', connectionString: 'mysql://db/x?sslcert=/etc/x' }, 'monitors.connectionStringUnusable'],
    ['redis database not a number', { name, type: 'redis', connectionString: 'redis://cache/zero' }, 'monitors.connectionStringUnusable'],
    // the redis command must be a bounded read, as the checker requires
    ['redis read command', { name, type: 'redis', connectionString: 'redis://cache', query: 'GET "some key"' }, null],
    [
      'redis write command',
      { name, type: 'redis', connectionString: 'redis://cache', query: 'SET k v' },
      'monitors.redisCommandNotAllowed',
    ],
    [
      'redis admin command',
      { name, type: 'redis', connectionString: 'redis://cache', query: 'FLUSHALL' },
      'monitors.redisCommandNotAllowed',
    ],
    [
      'redis unclosed quote',
      { name, type: 'redis', connectionString: 'redis://cache', query: 'GET "k' },
      'monitors.redisCommandNotAllowed',
    ],
    ['sql is not judged as redis', { name, type: 'postgres', connectionString: 'postgres://db/app', query: 'SET x = 1' }, null],
    // assertions, per the body's type
    [
      'assertions for the type',
      { name, type: 'tcp', hostname: 'db', port: 1, assertions: [{ source: 'body', operator: 'exists' }] },
      'monitors.assertionSourceNotForType',
    ],
    [
      'assertions shape',
      { name, url: 'https://e.com', assertions: [{ source: 'jsonPath', operator: 'eq', value: 1 }] },
      'monitors.assertionPathRequired',
    ],
    [
      'assertions ok',
      { name, url: 'https://e.com', assertions: [{ source: 'jsonPath', path: '$.ok', operator: 'eq', value: true }] },
      null,
    ],
    // xugou's alias
    ['expected_status checked like expectedStatus', { name, url: 'https://e.com', expected_status: 999 }, 'monitors.expectedStatusInvalid'],
  ])('create: %s', async (_case, body, code) => {
    expect(await codeOf(CreateMonitorDto, body)).toBe(code);
    expect(await codeOf(TestMonitorDto, body)).toBe(code);
  });

  it.each<[string, Record<string, unknown>, MessageCode | null]>([
    ['nothing', {}, null],
    ['a hostname alone, shape checked', { hostname: 'bad host' }, 'monitors.hostnameInvalid'],
    ['a port alone', { port: 0 }, 'monitors.portInvalid'],
    ['a url of either scheme family', { url: 'wss://example.com' }, null],
    ['not a url', { url: 'example.com' }, 'monitors.urlInvalid'],
    ['a type without its fields (the service requires them)', { type: 'tcp' }, null],
    ['a type with a bad field', { type: 'tcp', port: -1 }, 'monitors.portInvalid'],
    ['a connection string of any database scheme', { connectionString: 'redis://cache' }, null],
    [
      'a connection string no database type can use',
      { connectionString: 'mysql://db/x?host=elsewhere' },
      'monitors.connectionStringUnusable',
    ],
    ['a redis command judged with the type named', { type: 'redis', query: 'DEL k' }, 'monitors.redisCommandNotAllowed'],
  ])('update: %s', async (_case, body, code) => {
    expect(await codeOf(UpdateMonitorDto, body)).toBe(code);
  });

  it('keeps the fields a type reads and lets the others through unvalidated for the service to ignore', async () => {
    const sut = (await validate(CreateMonitorDto, {
      name,
      type: 'tcp',
      hostname: ' db ',
      port: '22',
      url: 'not checked for tcp',
      unknown: 1,
    })) as CreateMonitorDto & { unknown?: number };
    expect(sut).toMatchObject({ type: 'tcp', hostname: 'db', port: 22 });
    expect(sut.unknown).toBeUndefined();
  });

  it('reads the list filter by type', async () => {
    expect(await codeOf(ListMonitorsQuery, { type: 'dns' }, 'query')).toBeNull();
    expect(await codeOf(ListMonitorsQuery, { type: 'nope' }, 'query')).toBe('monitors.typeInvalid');
  });
});

describe("the first types' fields, checked from their specs (issue 33)", () => {
  const dns = { name, type: 'dns', hostname: 'example.com' };
  const redis = { name, type: 'redis', connectionString: 'redis://cache' };
  it.each<[string, Record<string, unknown>, MessageCode | null]>([
    // multiline text: SQL and WebSocket messages may hold line breaks
    ['a query over several lines', { ...redis, type: 'postgres', connectionString: 'postgres://db/app', query: 'SELECT 1\nFROM t' }, null],
    ['a message over several lines', { name, type: 'websocket', url: 'wss://e.com', message: '{\n  "op": 1\n}' }, null],
    ['a host name over two lines', { name, type: 'tcp', hostname: 'db\nx', port: 1 }, 'monitors.hostnameInvalid'],
    // strict kinds: a flag is true or false, text is a string
    ['a flag as text', { name, url: 'https://e.com', ignoreTls: 'true' }, 'monitors.ignoreTlsInvalid'],
    ['a flag as a number', { name, type: 'grpc', hostname: 'api', port: 1, tls: 1 }, 'monitors.tlsInvalid'],
    ['a host name as a number', { name, type: 'tcp', hostname: 5, port: 1 }, 'monitors.hostnameRequired'],
    ['a connection string as a number', { name, type: 'postgres', connectionString: 5 }, 'monitors.connectionStringRequired'],
    ['a port as digits', { name, type: 'tcp', hostname: 'db', port: ' 22 ' }, null],
    // blank text is a value, not "absent"
    ['a blank port', { name, type: 'tls', hostname: 'e.com', port: '' }, 'monitors.portInvalid'],
    ['a blank packet count', { name, type: 'ping', hostname: 'h', packetCount: '' }, 'monitors.packetCountInvalid'],
    ['a blank record type', { ...dns, dnsRecordType: ' ' }, 'monitors.dnsRecordTypeInvalid'],
    ['a blank push token', { name, type: 'push', pushToken: '' }, 'monitors.pushTokenInvalid'],
    ['a blank group rule', { name, type: 'group', groupRule: '' }, 'monitors.groupRuleInvalid'],
    ['a blank gRPC service: the server', { name, type: 'grpc', hostname: 'api', port: 1, grpcService: '' }, null],
    ['a blank query: the default', { ...redis, query: '  ' }, null],
    ['null clears a DNS server', { ...dns, dnsServer: null }, null],
    // the text and null rules answer with the field's own message
    ['a NUL in a host name', { name, type: 'tcp', hostname: 'd\u0000b', port: 1 }, 'monitors.hostnameRequired'],
    ['a NUL in a query', { ...redis, query: 'GET \u0000' }, 'monitors.queryTooLong'],
    ['a null port', { name, type: 'tcp', hostname: 'db', port: null }, 'monitors.portInvalid'],
    ['a null flag', { name, url: 'https://e.com', ignoreTls: null }, 'monitors.ignoreTlsInvalid'],
    // the first problem is the first in the type's own field list
    ['host name before port', { name, type: 'tcp', hostname: 'bad host', port: 0 }, 'monitors.hostnameInvalid'],
    [
      'service before tls',
      { name, type: 'grpc', hostname: 'api', port: 1, grpcService: 'x'.repeat(201), tls: 'x' },
      'monitors.grpcServiceInvalid',
    ],
    ['record type before server', { ...dns, dnsRecordType: 'ANY', dnsServer: 'a b' }, 'monitors.dnsRecordTypeInvalid'],
    ["host name before an added type's flag", { name, type: 'smtp', ignoreTls: 'maybe' }, 'monitors.hostnameRequired'],
    ["an added type's flag", { name, type: 'smtp', hostname: 'mx', ignoreTls: 'maybe' }, 'monitors.ignoreTlsInvalid'],
    ["an added type's port", { name, type: 'mqtt', hostname: 'broker', port: 70_000 }, 'monitors.portInvalid'],
    ["a group's count", { name, type: 'group', groupRule: 'atLeast', groupMin: 0 }, 'monitors.groupMinInvalid'],
  ])('%s', async (_case, body, code) => {
    expect(await codeOf(CreateMonitorDto, body)).toBe(code);
  });

  it('reads values as the API always stored them', async () => {
    const sut = (await validate(CreateMonitorDto, {
      ...dns,
      dnsRecordType: ' aaaa ',
      dnsServer: ' ',
      hostname: '[::1]',
    })) as CreateMonitorDto;
    expect(sut).toMatchObject({ dnsRecordType: 'AAAA', dnsServer: null, hostname: '::1' });
    const socket = (await validate(CreateMonitorDto, {
      name,
      type: 'websocket',
      url: 'wss://e.com',
      message: ' hi\n',
    })) as CreateMonitorDto;
    expect(socket.message).toBe(' hi\n');
    const https = (await validate(CreateMonitorDto, {
      name,
      url: 'https://e.com',
      certExpiryDays: '7',
      maxRedirects: '2',
    })) as CreateMonitorDto;
    expect(https).toMatchObject({ certExpiryDays: [7], maxRedirects: 2 });
  });
});

describe('dependencies and the degraded threshold (issue 29)', () => {
  const url = 'https://example.com';
  it.each<[string, Record<string, unknown>, MessageCode | null]>([
    ['no dependencies', { name, url, dependsOn: [] }, null],
    [
      'a monitor and an agent',
      {
        name,
        url,
        dependsOn: [
          { type: 'monitor', id: 1 },
          { type: 'agent', id: 1 },
        ],
      },
      null,
    ],
    ['read as depends_on too', { name, url, depends_on: [{ type: 'agent', id: 2 }] }, null],
    ['not a list', { name, url, dependsOn: { type: 'monitor', id: 1 } }, 'dependencies.invalid'],
    ['an unknown kind', { name, url, dependsOn: [{ type: 'group', id: 1 }] }, 'dependencies.invalid'],
    ['an id as text', { name, url, dependsOn: [{ type: 'monitor', id: '1' }] }, 'dependencies.invalid'],
    ['an id out of range', { name, url, dependsOn: [{ type: 'monitor', id: 2 ** 31 }] }, 'dependencies.invalid'],
    ['a field too many', { name, url, dependsOn: [{ type: 'monitor', id: 1, name: 'x' }] }, 'dependencies.invalid'],
    [
      'one twice',
      {
        name,
        url,
        dependsOn: [
          { type: 'monitor', id: 1 },
          { type: 'monitor', id: 1 },
        ],
      },
      'dependencies.invalid',
    ],
    [
      'more than 20',
      { name, url, dependsOn: Array.from({ length: 21 }, (_, i) => ({ type: 'monitor', id: i + 1 })) },
      'dependencies.invalid',
    ],
    ['a threshold', { name, url, degradedAfterMs: 500 }, null],
    ['a threshold as text', { name, url, degradedAfterMs: '500' }, null],
    ['no threshold', { name, url, degradedAfterMs: null }, null],
    ['a threshold of 0', { name, url, degradedAfterMs: 0 }, 'monitors.degradedAfterInvalid'],
    ['a threshold past the longest timeout', { name, url, degradedAfterMs: 300_001 }, 'monitors.degradedAfterInvalid'],
    ['a fractional threshold', { name, url, degradedAfterMs: 1.5 }, 'monitors.degradedAfterInvalid'],
  ])('%s', async (_case, body, code) => {
    expect(await codeOf(CreateMonitorDto, body)).toBe(code);
  });
});

import { connect } from 'node:net';
import { SECRET_MASK } from '@vigil/proto';
import { AddressDenyList } from '../../common/outbound';
import {
  ConnectionStringError,
  type DatabaseRun,
  type DatabaseSession,
  describeDatabaseFailure,
  parseConnectionString,
  redactSecrets,
  runDatabaseCheck,
  secretsOf,
  tlsOptions,
} from './database-connection';

describe('parseConnectionString', () => {
  it.each([
    [
      'postgres',
      'postgres://alice:s%40cret@db.example.com:6432/app?sslmode=require',
      { host: 'db.example.com', port: 6432, username: 'alice', password: 's@cret', database: 'app', tls: 'encrypt' },
    ],
    ['postgres', 'postgresql://db', { host: 'db', port: 5432, username: '', password: '', database: '', tls: 'off' }],
    ['postgres', 'postgres://u@[::1]/x?sslmode=verify-full&application_name=a', { host: '::1', port: 5432, tls: 'verify-full' }],
    ['postgres', 'postgres://u@h/x?sslmode=prefer', { tls: 'off' }],
    [
      'mysql',
      'mysql://root:pw@127.0.0.1/shop?ssl-mode=VERIFY_IDENTITY',
      { host: '127.0.0.1', port: 3306, database: 'shop', tls: 'verify-full' },
    ],
    ['mysql', 'mariadb://root@h:3307?sslmode=required', { port: 3307, tls: 'encrypt' }],
    ['redis', 'redis://:pw@cache:6380/2', { host: 'cache', port: 6380, password: 'pw', database: '2', tls: 'off' }],
    ['redis', 'rediss://user:pw@cache', { port: 6379, username: 'user', tls: 'verify-full' }],
    ['redis', 'rediss://cache?skip_verify=true', { tls: 'encrypt' }],
    ['redis', 'redis://cache?skip_verify=true', { tls: 'off' }],
  ] as const)('reads a %s string %s', (type, text, expected) => {
    expect(parseConnectionString(type, text)).toMatchObject(expected);
  });

  it.each([
    ['postgres', 'not a url s3cret', 'The connection string is not a valid URL'],
    ['postgres', 'mysql://u:s3cret@h/db', 'The connection string must start with postgres:// or postgresql://'],
    ['redis', 'http://u:s3cret@h', 'The connection string must start with redis:// or rediss://'],
    [
      'postgres',
      'postgres:///db?host=/var/run/postgresql&password=s3cret',
      'The connection string has no host (Unix sockets are not supported)',
    ],
    [
      'postgres',
      'postgres://u:s3cret@h/db?sslcert=/etc/shadow',
      'The connection string may only carry these parameters: sslmode, application_name, connect_timeout',
    ],
    [
      'postgres',
      'postgres://u:s3cret@h/db?host=10.0.0.1',
      'The connection string may only carry these parameters: sslmode, application_name, connect_timeout',
    ],
    [
      'postgres',
      'postgres://u:s3cret@h/db?sslmode=s3cret',
      'sslmode must be one of disable, allow, prefer, require, no-verify, verify-ca, verify-full',
    ],
    ['redis', 'redis://u:s3cret@h/s3cret', 'The Redis database (the path) must be a number'],
  ] as const)('refuses a %s string %s without repeating it', (type, text, message) => {
    const error = catchError(() => parseConnectionString(type, text));
    expect(error).toBeInstanceOf(ConnectionStringError);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('s3cret');
  });
});

describe('tlsOptions', () => {
  const endpoint = { host: 'db.example.com', port: 5432, username: '', password: '', database: '' };

  it('verifies the certificate against the name written, though the socket goes to the resolved address', () => {
    expect(tlsOptions({ ...endpoint, tls: 'verify-full' })).toEqual({ rejectUnauthorized: true, servername: 'db.example.com' });
  });

  it('encrypts without verifying for require', () => {
    expect(tlsOptions({ ...endpoint, tls: 'encrypt' })).toEqual({ rejectUnauthorized: false, servername: 'db.example.com' });
  });

  it('verifies the chain but not the name for verify-ca', () => {
    const options = tlsOptions({ ...endpoint, tls: 'verify-ca' });
    expect(options?.rejectUnauthorized).toBe(true);
    expect(options?.checkServerIdentity?.('other.example.com', {} as never)).toBeUndefined();
  });

  it('sends no SNI for an IP address', () => {
    expect(tlsOptions({ ...endpoint, host: '10.1.2.3', tls: 'verify-full' })).toEqual({ rejectUnauthorized: true, host: '10.1.2.3' });
  });

  it('is null without TLS', () => {
    expect(tlsOptions({ ...endpoint, tls: 'off' })).toBeNull();
  });
});

describe('redactSecrets', () => {
  const connectionString = 'postgres://alice:p%40ss%2Fw0rd@db.example.com/app';
  const secrets = secretsOf(connectionString);

  it.each([
    ['the decoded password', 'password "p@ss/w0rd" rejected', `password "${SECRET_MASK}" rejected`],
    ['the password as written', 'bad token p%40ss%2Fw0rd', `bad token ${SECRET_MASK}`],
    ['the whole string', `cannot parse ${connectionString}`, `cannot parse ${SECRET_MASK}`],
    ['any URL credentials', 'see mysql://bob:hunter2@other/x', `see mysql://${SECRET_MASK}@other/x`],
    ['nothing else', 'relation "users" does not exist', 'relation "users" does not exist'],
  ])('takes out %s', (_what, text, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });

  it('finds a password a URL parser would misread as a port (an unescaped # in it)', () => {
    expect(secretsOf('postgres://alice:12#34@db/app')).toContain('12#34');
  });
});

describe('describeDatabaseFailure', () => {
  const secrets = secretsOf('mysql://root:T0ps3cret@db/app');

  it.each([
    [{ code: 'ECHECKTIMEOUT' }, 'Timeout after 5 s'],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, 'Timeout after 5 s'],
    [{ errno: 1969, message: 'Query execution was interrupted (max_statement_time exceeded)' }, 'Timeout after 5 s'],
    [{ message: 'Command timed out' }, 'Timeout after 5 s'],
    [{ message: 'Connection terminated due to connection timeout' }, 'Timeout after 5 s'],
    [{ code: 'ETIMEDOUT', message: 'connect ETIMEDOUT' }, 'Timeout after 5 s'],
    [{ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND T0ps3cret' }, 'DNS lookup failed: host not found'],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:3306' }, 'Connection refused'],
    [{ code: 'EPIPE' }, 'Connection reset by the server'],
    [{ code: 'EOUTBOUNDDENIED', address: '10.0.0.7' }, 'Address 10.0.0.7 is refused by OUTBOUND_DENY'],
    [new ConnectionStringError('The connection string is not a valid URL'), 'The connection string is not a valid URL'],
    [
      { code: 'ER_ACCESS_DENIED_ERROR', message: "Access denied for user 'root'@'10.0.0.2' (using password: YES)" },
      "Access denied for user 'root'@'10.0.0.2' (using password: YES)",
    ],
    [{ code: '28P01', message: 'password T0ps3cret authentication failed' }, `password ${SECRET_MASK} authentication failed`],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' }, 'TLS error: self-signed certificate'],
    [{ message: 'column "timeout" does not exist' }, 'column "timeout" does not exist'],
    [{}, 'Connection failed'],
  ])('describes %j as "%s"', (error, text) => {
    expect(describeDatabaseFailure(error, 5, secrets)).toBe(text);
  });

  it('shortens a long server message', () => {
    expect(describeDatabaseFailure({ message: 'x'.repeat(2000) }, 5, secrets)).toHaveLength(500);
  });
});

describe('runDatabaseCheck', () => {
  const target = { connectionString: 'postgres://u:T0ps3cret@127.0.0.1:5999/db', timeout: 1, scope: 'admin' as const };
  const session = (): DatabaseSession & { closed: number; destroyed: number } => {
    const state = { closed: 0, destroyed: 0 };
    return Object.assign(state, {
      close: async () => void (state.closed += 1),
      destroy: () => void (state.destroyed += 1),
    });
  };

  it('measures connect and query, then closes the connection politely', async () => {
    const open = new Set<DatabaseSession>();
    const opened = session();
    const result = await runDatabaseCheck(
      'postgres',
      target,
      AddressDenyList.parse(''),
      open,
      async (endpoint, _lookup, _remaining, track) => {
        expect(endpoint).toMatchObject({ host: '127.0.0.1', port: 5999, password: 'T0ps3cret' });
        track(opened);
        opened.connected = true;
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { rowCount: 1, value: '1' };
      },
    );
    expect(result).toMatchObject({ ok: true, error: null, observed: { rowCount: 1, value: '1' } });
    expect(result.responseTime).toBeGreaterThanOrEqual(25);
    expect(opened.closed).toBe(1);
    expect(open.size).toBe(0);
  });

  it('destroys at once a connection that failed before signing in, without waiting for a polite close', async () => {
    const opened = session();
    const result = await runDatabaseCheck(
      'postgres',
      target,
      AddressDenyList.parse(''),
      new Set(),
      async (_endpoint, _lookup, _remaining, track) => {
        track(opened);
        throw Object.assign(new Error('Access denied'), { code: 'ER_ACCESS_DENIED_ERROR' });
      },
    );
    expect(result.error).toBe('Access denied');
    expect(opened).toMatchObject({ closed: 0, destroyed: 1 });
  });

  it('ends a check that outlives its timeout by destroying the connection, whatever the driver does', async () => {
    const opened = session();
    const started = Date.now();
    const result = await runDatabaseCheck(
      'postgres',
      target,
      AddressDenyList.parse(''),
      new Set(),
      (_endpoint, _address, _remaining, track) => {
        track(opened);
        return new Promise(() => undefined);
      },
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({ ok: false, responseTime: null, error: 'Timeout after 1 s' });
    expect(opened.destroyed).toBe(1);
    expect(opened.closed).toBe(0);
  });

  it('refuses an IP literal in OUTBOUND_DENY before connecting', async () => {
    const run = jest.fn();
    const result = await runDatabaseCheck('postgres', target, AddressDenyList.parse('127.0.0.0/8'), new Set(), run);
    expect(result.error).toBe('Address 127.0.0.1 is refused by OUTBOUND_DENY');
    expect(run).not.toHaveBeenCalled();
  });

  /** A run that only opens the socket, as the drivers do, with the lookup it is given. */
  const connecting: DatabaseRun = (endpoint, lookup) =>
    new Promise((_resolve, reject) => {
      const socket = connect({ host: endpoint.host, port: endpoint.port, lookup });
      socket.on('error', reject);
      socket.on('connect', () => {
        socket.destroy();
        reject(new Error('connected'));
      });
    });

  it('names a host that does not resolve without the connection string', async () => {
    const result = await runDatabaseCheck(
      'postgres',
      { ...target, connectionString: 'postgres://u:T0ps3cret@no-such-host.invalid/db' },
      AddressDenyList.parse(''),
      new Set(),
      connecting,
    );
    expect(result.error).toBe('DNS lookup failed: host not found');
  });

  it('refuses a name whose every address is in OUTBOUND_DENY', async () => {
    const result = await runDatabaseCheck(
      'postgres',
      { ...target, connectionString: 'postgres://u:T0ps3cret@localhost:5999/db' },
      AddressDenyList.parse('127.0.0.0/8, ::1'),
      new Set(),
      connecting,
    );
    expect(result.error).toMatch(/^Address (127\.0\.0\.1|::1) is refused by OUTBOUND_DENY$/);
  });

  it('keeps a driver error that quotes the password out of the result', async () => {
    const result = await runDatabaseCheck('postgres', target, AddressDenyList.parse(''), new Set(), async () => {
      throw new Error(`auth failed for postgres://u:T0ps3cret@127.0.0.1:5999/db (password T0ps3cret)`);
    });
    expect(result.error).toBe(`auth failed for ${SECRET_MASK} (password ${SECRET_MASK})`);
  });
});

function catchError(work: () => unknown): Error {
  try {
    work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

import { CHANNEL_TYPES, channelSpec } from '@vigil/proto';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('reads every hosted channel service address from <TYPE>_API_URL, without a trailing slash', () => {
    const sut = loadConfig({ PAGERDUTY_API_URL: 'http://127.0.0.1:9/pd/', OPSGENIE_API_URL: 'https://proxy.example/og' });
    expect(sut.notifications.apiUrls).toMatchObject({ pagerduty: 'http://127.0.0.1:9/pd', opsgenie: 'https://proxy.example/og' });
    for (const type of CHANNEL_TYPES) expect(sut.notifications.apiUrls[type] !== undefined).toBe(channelSpec(type).apiUrl !== undefined);
  });

  it('falls back to /var/lib/vigil (or FALLBACK_DATA_DIR) only while DATA_DIR is unset', () => {
    expect(loadConfig({}).dataDirFallback).toBe('/var/lib/vigil');
    expect(loadConfig({ FALLBACK_DATA_DIR: '/srv/vigil-test' }).dataDirFallback).toBe('/srv/vigil-test');
    expect(loadConfig({ DATA_DIR: '/srv/data', FALLBACK_DATA_DIR: '/srv/vigil-test' })).toMatchObject({
      dataDir: '/srv/data',
      dataDirFallback: null,
    });
  });

  it('applies the documented defaults to an empty environment', () => {
    const sut = loadConfig({});
    expect(sut).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      redisUrl: null,
      redisPrefix: 'vigil',
      publicUrl: null,
      jwtSecret: null,
      jwtExpiresIn: '7d',
      logLevel: 'log',
      trustProxy: { kind: 'off' },
      databaseConnectTimeoutMs: 5000,
      databaseStatementTimeoutMs: 10_000,
      credentialFailuresPerMinute: 60,
    });
    expect(sut.dataDir).toMatch(/data$/);
    expect(sut.notifications).toEqual({
      apiUrls: expect.objectContaining({ telegram: 'https://api.telegram.org', resend: 'https://api.resend.com' }),
      timeoutMs: 10_000,
      retryBaseMs: 30_000,
      maxAttempts: 7,
      thresholdReports: 3,
      alertMinuteMs: 60_000,
      alertSecondMs: 1000,
      alertSweepMs: 15_000,
    });
    expect(sut.outboundDeny.ranges).toEqual(['169.254.0.0/16', 'fe80::/10', 'fd00:ec2::254']);
    expect(sut.userOutboundDeny.ranges).toEqual(['127.0.0.0/8', '::1/128', '0.0.0.0/8', '::/128']);
    expect(sut.browser).toEqual({ frameAncestors: ["'self'"], assetOrigins: [] });
    expect(sut.agents).toEqual({ graceSeconds: 10, minuteRetentionHours: 48, fiveMinuteRetentionDays: 30, hourRetentionDays: 365 });
    expect(sut.maintenance).toEqual({ sweepMs: 5_000 });
    expect(sut.monitors).toMatchObject({
      checkRetentionHours: 48,
      aggregateRetentionDays: 400,
      checkConcurrency: 256,
      connectionsPerOrigin: 32,
    });
    expect(sut.monitors).toMatchObject({ flappingChanges: 5, flappingWindowMs: 600_000 });
    expect(sut.monitors.rdapBootstrapUrl).toBe('https://data.iana.org/rdap/dns.json');
  });

  it.each([
    [{}, true, 'pretty'],
    [{}, false, 'json'],
    [{ LOG_FORMAT: 'json' }, true, 'json'],
    [{ LOG_FORMAT: 'PRETTY' }, false, 'pretty'],
  ])('takes the log format from LOG_FORMAT %j (on a terminal: %s), else pretty only on a terminal', (env, terminal, format) => {
    expect(loadConfig(env, terminal).logFormat).toBe(format);
  });

  it('takes the RDAP bootstrap file of domain checks from RDAP_BOOTSTRAP_URL', () => {
    expect(loadConfig({ RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/rdap/dns.json' }).monitors.rdapBootstrapUrl).toBe(
      'http://127.0.0.1:9/rdap/dns.json',
    );
  });

  it.each([
    [{}, { subject: 'mailto:vigil@example.invalid', allowHttp: false }],
    [{ PUBLIC_URL: 'https://vigil.example.com/' }, { subject: 'https://vigil.example.com', allowHttp: false }],
    [
      { PUBLIC_URL: 'http://vigil.lan', WEB_PUSH_ALLOW_HTTP: 'true' },
      { subject: 'mailto:vigil@example.invalid', allowHttp: true },
    ],
    [
      { WEB_PUSH_SUBJECT: 'mailto:ops@example.com', WEB_PUSH_ALLOW_HTTP: '0' },
      { subject: 'mailto:ops@example.com', allowHttp: false },
    ],
  ])('reads the Web Push settings from %j', (env, webPush) => {
    expect(loadConfig(env).webPush).toEqual(webPush);
  });

  it('takes the flapping rule from FLAPPING_CHANGES and FLAPPING_WINDOW_MINUTES', () => {
    expect(loadConfig({ FLAPPING_CHANGES: '3', FLAPPING_WINDOW_MINUTES: '30' }).monitors).toMatchObject({
      flappingChanges: 3,
      flappingWindowMs: 1_800_000,
    });
    expect(() => loadConfig({ FLAPPING_CHANGES: '1' })).toThrow(/FLAPPING_CHANGES must be a whole number from 2 to 1000/);
    expect(() => loadConfig({ FLAPPING_WINDOW_MINUTES: '0' })).toThrow(/FLAPPING_WINDOW_MINUTES must be a whole number from 1 to 1440/);
    // The alert test clock shortens its minutes too.
    expect(loadConfig({ FLAPPING_WINDOW_MINUTES: '2', ALERT_MINUTE_MS: '500' }).monitors.flappingWindowMs).toBe(1000);
  });

  it('takes the checker’s connections per origin from CHECK_CONNECTIONS_PER_ORIGIN', () => {
    expect(loadConfig({ CHECK_CONNECTIONS_PER_ORIGIN: '4' }).monitors.connectionsPerOrigin).toBe(4);
  });

  it('takes the unknown credentials an address may present a minute from CREDENTIAL_FAILURES_PER_MINUTE', () => {
    expect(loadConfig({ CREDENTIAL_FAILURES_PER_MINUTE: '600' }).credentialFailuresPerMinute).toBe(600);
    expect(() => loadConfig({ CREDENTIAL_FAILURES_PER_MINUTE: '0' })).toThrow(/CREDENTIAL_FAILURES_PER_MINUTE/);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:\/\//],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must start with redis:\/\//],
    [{ REDIS_URL: 'redis://127.0.0.1:6379' }, /REDIS_URL needs DATABASE_URL/],
    [{ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x', REDIS_PREFIX: 'a b' }, /REDIS_PREFIX must be/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL must start with http:\/\//],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32 characters/],
    [{ JWT_EXPIRES_IN: 'forever' }, /JWT_EXPIRES_IN must look like/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ LOG_FORMAT: 'logfmt' }, /LOG_FORMAT must be json or pretty \(got "logfmt"\)/],
    [{ FRAME_ANCESTORS: "'self'; script-src *" }, /FRAME_ANCESTORS must list/],
    [{ FRAME_ANCESTORS: 'https://noc.example.com/wall' }, /FRAME_ANCESTORS must list/],
    [{ FRAME_ANCESTORS: "'none' https://noc.example.com" }, /'none' cannot be combined/],
    [{ STATUS_ASSET_ORIGINS: 'https://*.example.com' }, /STATUS_ASSET_ORIGINS must list/],
    [{ STATUS_ASSET_ORIGINS: 'https://cdn.example.com/images' }, /STATUS_ASSET_ORIGINS must list/],
    [{ TELEGRAM_API_URL: 'file:///x' }, /TELEGRAM_API_URL must start with http:\/\//],
    [{ PAGERDUTY_API_URL: 'not a url' }, /PAGERDUTY_API_URL must be a URL/],
    [{ RDAP_BOOTSTRAP_URL: 'file:///etc/dns.json' }, /RDAP_BOOTSTRAP_URL must start with http:\/\//],
    [{ RDAP_BOOTSTRAP_URL: 'dns.json' }, /RDAP_BOOTSTRAP_URL must be a URL/],
    [{ NOTIFICATION_RETRY_BASE_MS: '10' }, /NOTIFICATION_RETRY_BASE_MS must be a whole number from 100/],
    [{ NOTIFICATION_MAX_ATTEMPTS: '0' }, /NOTIFICATION_MAX_ATTEMPTS must be a whole number from 1 to 20/],
    [{ ALERT_THRESHOLD_REPORTS: 'three' }, /ALERT_THRESHOLD_REPORTS must be a whole number/],
    [{ AGENT_GRACE_SECONDS: '0' }, /AGENT_GRACE_SECONDS must be a whole number from 1 to 600/],
    [{ CHECK_CONNECTIONS_PER_ORIGIN: '0' }, /CHECK_CONNECTIONS_PER_ORIGIN must be a whole number from 1 to 1024 \(got "0"\)/],
    [{ CHECK_CONNECTIONS_PER_ORIGIN: 'many' }, /CHECK_CONNECTIONS_PER_ORIGIN must be a whole number/],
    [{ AGENT_METRICS_MINUTE_HOURS: '1' }, /AGENT_METRICS_MINUTE_HOURS must be a whole number from 2/],
    [{ AGENT_METRICS_HOUR_DAYS: 'a year' }, /AGENT_METRICS_HOUR_DAYS must be a whole number/],
    [
      { OUTBOUND_DENY: '10.0.0.0/8, 300.1.2.3/32' },
      /^OUTBOUND_DENY must be a list of IPv4 or IPv6 CIDRs separated by commas: "300.1.2.3\/32" is not/,
    ],
    [{ OUTBOUND_DENY: 'fd00::/200' }, /OUTBOUND_DENY .*"fd00::\/200"/],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY=true would let any client choose its address/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY must be .* \(bad entry "10.0.0.0\/33"\)/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '0' }, /DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 500/],
    [{ DATABASE_CONNECT_TIMEOUT_MS: 'soon' }, /DATABASE_CONNECT_TIMEOUT_MS must be a whole number/],
    [{ WEB_PUSH_ALLOW_HTTP: 'yes' }, /WEB_PUSH_ALLOW_HTTP must be true or false/],
    [{ WEB_PUSH_SUBJECT: 'http://example.com' }, /WEB_PUSH_SUBJECT must be a mailto: address or an https:\/\/ URL/],
  ])('rejects %j with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never repeats a password given in REDIS_URL', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://:hunter2@127.0.0.1:6379' })).toThrow(/REDIS_URL needs DATABASE_URL/);
    expect(() => loadConfig({ REDIS_URL: 'redis://:hunter2@127.0.0.1:6379' })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ REDIS_URL: 'http://:hunter2@x' })).not.toThrow(/hunter2/);
  });

  it('accepts a complete valid environment', () => {
    const sut = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PUBLIC_URL: 'https://vigil.example.com/',
      JWT_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'info',
      FRAME_ANCESTORS: 'self, https://noc.example.com https://*.intranet.example',
      STATUS_ASSET_ORIGINS: 'https://cdn.example.com/ http://127.0.0.1:8081',
      TRUST_PROXY: '2',
    });
    expect(sut.browser).toEqual({
      frameAncestors: ["'self'", 'https://noc.example.com', 'https://*.intranet.example'],
      assetOrigins: ['https://cdn.example.com', 'http://127.0.0.1:8081', 'https://vigil.example.com'],
    });
    expect(sut.port).toBe(8080);
    expect(sut.trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(sut.publicUrl).toBe('https://vigil.example.com');
    expect(sut.logLevel).toBe('log');
  });

  it('reads OUTBOUND_DENY as IPv4 and IPv6 ranges', () => {
    const sut = loadConfig({ OUTBOUND_DENY: ' 169.254.0.0/16,fd00::/8 ' }).outboundDeny;
    expect(sut.ranges).toEqual(['169.254.0.0/16', 'fd00::/8']);
    expect(sut.denies('169.254.169.254')).toBe(true);
    expect(sut.denies('fd00::1')).toBe(true);
    expect(sut.denies('10.0.0.1')).toBe(false);
  });

  it('takes none as an empty OUTBOUND_DENY and names USER_OUTBOUND_DENY in its refusals', () => {
    const sut = loadConfig({ OUTBOUND_DENY: 'none', USER_OUTBOUND_DENY: '10.0.0.0/8' });
    expect(sut.outboundDeny.empty).toBe(true);
    expect(sut.userOutboundDeny.refusal('10.1.2.3')).toBe('USER_OUTBOUND_DENY');
  });

  it('stops at boot on a USER_OUTBOUND_DENY entry that is not a range', () => {
    expect(() => loadConfig({ USER_OUTBOUND_DENY: '127.0.0.0/8, localhost' })).toThrow(/USER_OUTBOUND_DENY/);
  });
});

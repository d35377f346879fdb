import { checkBacklog, checkHello, checkReport } from './agent-validation';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

const hello = {
  hostname: 'web-1',
  ip_addresses: ['10.0.0.5', 'fe80::1'],
  os: 'Debian GNU/Linux 12',
  platform: 'linux',
  kernel: '6.1.0',
  arch: 'x64',
  cpu_model: 'AMD EPYC',
  cpu_cores: 4,
  agent_version: '0.1.0',
  interval: 60,
};

const report = {
  timestamp: NOW - 1_000,
  cpu: 12.5,
  load: [0.5, 0.4, 0.3],
  memory_total: 8e9,
  memory_used: 2e9,
  swap_total: 1e9,
  swap_used: 0,
  disks: [{ mount: '/', fs: 'ext4', total: 1e11, used: 5e10 }],
  interfaces: [{ name: 'eth0', rx_rate: 1.5, tx_rate: 0.5, rx_bytes: 1e6, tx_bytes: 5e5 }],
  uptime: 3_600,
};

describe('hello validation', () => {
  it('accepts a full hello and one with only the required fields', () => {
    expect(checkHello(hello)).toEqual({ ok: true, value: hello });
    const minimal = { hostname: 'h', ip_addresses: [], os: 'x', platform: 'linux', agent_version: '1' };
    expect(checkHello(minimal)).toMatchObject({ ok: true, value: minimal });
  });

  it.each([
    [null, 'hello must be an object'],
    [[], 'hello must be an object'],
    [{ ...hello, hostname: undefined }, 'hello.hostname is required'],
    [{ ...hello, hostname: 42 }, 'hello.hostname must be text'],
    [{ ...hello, hostname: 'a'.repeat(256) }, 'hello.hostname must be at most 255 characters'],
    [{ ...hello, hostname: 'evil\nline' }, 'hello.hostname must not contain control characters'],
    [{ ...hello, ip_addresses: 'x' }, 'hello.ip_addresses must be a list'],
    [{ ...hello, ip_addresses: Array(33).fill('1.1.1.1') }, 'hello.ip_addresses must have at most 32 items'],
    [{ ...hello, cpu_cores: 2.5 }, 'hello.cpu_cores must be a whole number'],
    [{ ...hello, interval: 1 }, 'hello.interval must be from 5 to 3600'],
    [{ ...hello, agent_version: undefined }, 'hello.agent_version is required'],
  ])('refuses %j', (input, error) => {
    expect(checkHello(input)).toEqual({ ok: false, error });
  });
});

describe('report validation', () => {
  it('accepts a full report and one without the optional fields', () => {
    expect(checkReport(report, NOW)).toEqual({ ok: true, value: report });
    const required = Object.fromEntries(
      Object.entries(report).filter(([key]) => !['load', 'swap_total', 'swap_used', 'uptime'].includes(key)),
    );
    expect(checkReport(required, NOW)).toMatchObject({ ok: true });
  });

  it('accepts a buffered report up to a day old and a clock a little ahead', () => {
    expect(checkReport({ ...report, timestamp: NOW - 23 * 3_600_000 }, NOW).ok).toBe(true);
    expect(checkReport({ ...report, timestamp: NOW + 60_000 }, NOW).ok).toBe(true);
  });

  it.each([
    [{ ...report, cpu: -1 }, 'report.cpu must be from 0 to 100'],
    [{ ...report, cpu: 100.1 }, 'report.cpu must be from 0 to 100'],
    [{ ...report, cpu: '12' }, 'report.cpu must be a number'],
    [{ ...report, cpu: Number.NaN }, 'report.cpu must be a number'],
    [{ ...report, cpu: undefined }, 'report.cpu is required'],
    [{ ...report, timestamp: NOW - 25 * 3_600_000 }, /report.timestamp must be from/],
    [{ ...report, timestamp: NOW + 10 * 60_000 }, /report.timestamp must be from/],
    [{ ...report, timestamp: NOW - 0.5 }, 'report.timestamp must be a whole number'],
    [{ ...report, memory_total: 0 }, /report.memory_total must be from 1/],
    [{ ...report, memory_used: 9e9 }, 'report.memory_used must be from 0 to 8000000000'],
    [{ ...report, swap_used: 2e9 }, 'report.swap_used must be from 0 to 1000000000'],
    [{ ...report, load: [1, 2] }, 'report.load must have three numbers (1, 5 and 15 minutes)'],
    [{ ...report, load: [1, 2, -3] }, 'report.load[2] must be from 0 to 1000000'],
    [{ ...report, disks: [{ mount: '/', fs: 'ext4', total: 10, used: 11 }] }, 'report.disks[0].used must be from 0 to 10'],
    [{ ...report, disks: [{ fs: 'ext4', total: 10, used: 1 }] }, 'report.disks[0].mount is required'],
    [{ ...report, disks: Array(65).fill(report.disks[0]) }, 'report.disks must have at most 64 items'],
    [{ ...report, interfaces: [{ ...report.interfaces[0], rx_rate: -5 }] }, /report.interfaces\[0\].rx_rate must be from 0/],
    [
      { ...report, interfaces: [{ ...report.interfaces[0], name: 'x'.repeat(65) }] },
      'report.interfaces[0].name must be at most 64 characters',
    ],
    [{ ...report, uptime: -1 }, /report.uptime must be from 0/],
    ['garbage', 'report must be an object'],
  ])('refuses %#', (input, error) => {
    const result = checkReport(input, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  it('checks every report of a backlog and bounds its length', () => {
    expect(checkBacklog([report, report], NOW)).toMatchObject({ ok: true, value: [report, report] });
    expect(checkBacklog([report, { ...report, cpu: 101 }], NOW)).toEqual({ ok: false, error: 'backlog[1].cpu must be from 0 to 100' });
    expect(checkBacklog(Array(101).fill(report), NOW)).toEqual({ ok: false, error: 'backlog must have at most 100 items' });
    expect(checkBacklog({}, NOW)).toEqual({ ok: false, error: 'backlog must be a list' });
  });
});

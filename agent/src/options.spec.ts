import { parseOptions, UsageError } from './options';

describe('agent options', () => {
  it('reads flags, with defaults', () => {
    expect(parseOptions(['--server', 'https://vigil.example.com/', '--token', 'vgr_x'], {})).toEqual({
      server: 'https://vigil.example.com',
      token: 'vgr_x',
      interval: 60,
      name: null,
      disks: null,
      interfaces: null,
      config: null,
    });
  });

  it('reads the environment, and flags win over it', () => {
    const env = {
      VIGIL_SERVER: 'http://10.0.0.1:3000',
      VIGIL_TOKEN: 't',
      VIGIL_INTERVAL: '30',
      VIGIL_DISKS: '/, /data',
      VIGIL_INTERFACES: 'eth0',
      VIGIL_NAME: 'web',
      VIGIL_CONFIG: '/tmp/c.json',
    };
    expect(parseOptions([], env)).toMatchObject({
      server: 'http://10.0.0.1:3000',
      interval: 30,
      disks: ['/', '/data'],
      interfaces: ['eth0'],
      name: 'web',
      config: '/tmp/c.json',
    });
    expect(parseOptions(['--interval=15', '--name', 'db'], env)).toMatchObject({ interval: 15, name: 'db' });
  });

  it.each([
    [[], /--server is required/],
    [['--server', 'vigil.example.com'], /--server must be a URL/],
    [['--server', 'ftp://x'], /must start with http/],
    [['--server', 'http://x', '--interval', '2'], /--interval must be a whole number of seconds from 5 to 3600/],
    [['--server', 'http://x', '--interval', '1.5'], /--interval must be/],
    [['--server', 'http://x', '--interval', 'soon'], /--interval must be/],
    [['--server', 'http://x', '--bogus', '1'], /Unknown argument: --bogus/],
    [['--server'], /--server needs a value/],
    [['--server', '--token', 'x'], /--server needs a value/],
    [['--server', 'http://x', '--name', 'n'.repeat(101)], /--name must be at most 100/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseOptions(argv, {})).toThrow(UsageError);
    expect(() => parseOptions(argv, {})).toThrow(message);
  });
});

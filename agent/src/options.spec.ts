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
      containers: true,
      dockerSocket: null,
      services: null,
      ioDevices: null,
    });
  });

  it('reads the host insight flags: units get .service when they name no type, the socket comes from DOCKER_HOST too', () => {
    const base = ['--server', 'http://x'];
    expect(
      parseOptions([...base, '--services', 'nginx, postgresql@16-main,backup.timer,nginx', '--no-containers', '--io-devices=sda,dm-0'], {}),
    ).toMatchObject({
      services: ['nginx.service', 'postgresql@16-main.service', 'backup.timer'],
      containers: false,
      ioDevices: ['sda', 'dm-0'],
    });
    expect(parseOptions(base, { DOCKER_HOST: 'unix:///run/user/1000/docker.sock' }).dockerSocket).toBe('/run/user/1000/docker.sock');
    expect(parseOptions(base, { DOCKER_HOST: 'tcp://10.0.0.5:2376' }).dockerSocket).toBeNull();
    expect(parseOptions([...base, '--docker-socket', '/srv/podman.sock'], { DOCKER_HOST: 'unix:///x.sock' }).dockerSocket).toBe(
      '/srv/podman.sock',
    );
    expect(parseOptions(base, { VIGIL_DOCKER_SOCKET: '/a.sock', VIGIL_SERVICES: 'cron', VIGIL_NO_CONTAINERS: '1' })).toMatchObject({
      dockerSocket: '/a.sock',
      services: ['cron.service'],
      containers: false,
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
    [['--server', 'http://x', '--services', 'nginx;reboot'], /--services: "nginx;reboot" is not a systemd unit name/],
    [['--server', 'http://x', '--services', '-H,host'], /"-H" is not a systemd unit name/],
    [
      ['--server', 'http://x', '--services', Array.from({ length: 101 }, (_, i) => `u${i}`).join(',')],
      /--services takes at most 100 units/,
    ],
    [['--server', 'http://x', '--no-containers=1'], /Unknown argument: --no-containers=1/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseOptions(argv, {})).toThrow(UsageError);
    expect(() => parseOptions(argv, {})).toThrow(message);
  });
});

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_LIMITS } from '@vigil/proto';
import { Collector, CollectorOptions, CollectorSources } from './collector';
import { FakeEngine, fixture, json } from './fake-engine.testing';
import { Runner } from './services';

const OPTIONS: CollectorOptions = {
  name: 'spec',
  disks: null,
  interfaces: null,
  interval: 60,
  agentVersion: 'spec',
  containers: true,
  dockerSocket: null,
  services: null,
  ioDevices: null,
};

describe('collector on this machine', () => {
  const collector = new Collector(OPTIONS, { warn: () => undefined });

  it('describes the host', async () => {
    const hello = await collector.hello();
    expect(hello).toMatchObject({ name: 'spec', agent_version: 'spec', interval: 60, platform: process.platform });
    expect(hello.hostname.length).toBeGreaterThan(0);
    expect(hello.cpu_cores).toBeGreaterThan(0);
  });

  it('reports figures inside the bounds the server accepts, rates from the second report on', async () => {
    const first = await collector.report();
    const second = await collector.report();
    for (const report of [first, second]) {
      expect(report.cpu).toBeGreaterThanOrEqual(0);
      expect(report.cpu).toBeLessThanOrEqual(100);
      expect(report.memory_used).toBeLessThanOrEqual(report.memory_total);
      expect(report.load).toHaveLength(3);
      for (const disk of report.disks) {
        expect(disk.used).toBeLessThanOrEqual(disk.total);
        expect(['tmpfs', 'overlay', 'proc']).not.toContain(disk.fs);
      }
      for (const nic of report.interfaces) {
        expect(nic.name).not.toMatch(/^(lo|docker|veth)/);
        expect(nic.rx_rate).toBeGreaterThanOrEqual(0);
      }
      if (process.platform === 'linux') expect(report.disk_io).toEqual(expect.any(Array));
      for (const io of report.disk_io ?? []) expect(io.device).not.toMatch(/^(loop|ram|zram)/);
      // Containers are a list when this machine's engine is readable, null when not: never absent.
      expect(report.containers === null || Array.isArray(report.containers)).toBe(true);
      expect(report.services).toBeUndefined();
    }
    expect(second.timestamp).toBeGreaterThanOrEqual(first.timestamp);
  }, 20_000);
});

describe('collector with its deeper sources', () => {
  let dir: string;
  let engine: FakeEngine;
  let warnings: string[];
  let sources: CollectorSources;
  let systemctl: jest.Mock<ReturnType<Runner>, Parameters<Runner>>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-collector-'));
    mkdirSync(join(dir, 'block', 'sda'), { recursive: true });
    copyFileSync(join(__dirname, 'fixtures', 'diskstats-1.txt'), join(dir, 'diskstats'));
    mkdirSync(join(dir, 'hwmon', 'hwmon0'), { recursive: true });
    writeFileSync(join(dir, 'hwmon', 'hwmon0', 'name'), 'coretemp\n');
    writeFileSync(join(dir, 'hwmon', 'hwmon0', 'temp1_input'), '47000\n');
    engine = new FakeEngine(join(dir, 'docker.sock'));
    engine.routes.set('/containers/json', json(fixture('containers.json')));
    await engine.listen();
    warnings = [];
    systemctl = jest.fn<ReturnType<Runner>, Parameters<Runner>>(async () => 'Id=nginx.service\nActiveState=active\nSubState=running\n');
    sources = {
      platform: 'linux',
      diskstats: join(dir, 'diskstats'),
      sysBlock: join(dir, 'block'),
      hwmon: join(dir, 'hwmon'),
      engineSockets: [engine.socket],
      runService: systemctl,
      warn: (message) => warnings.push(message),
    };
  });
  afterEach(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds disk I/O, temperatures, containers and services to the report', async () => {
    const report = await new Collector({ ...OPTIONS, services: ['nginx.service'] }, sources).report();
    expect(report.disk_io!.map((d) => d.device)).toContain('sda');
    expect(report.sensors).toEqual([{ name: 'coretemp temp1', celsius: 47 }]);
    expect(report.containers!.map((c) => c.name)).toEqual(['web', 'api', 'db', 'migrate']);
    expect(report.containers!.find((c) => c.name === 'api')!.health).toBe('unhealthy');
    expect(report.services).toEqual([{ name: 'nginx.service', state: 'active', sub_state: 'running' }]);
    expect(report.containers!.length).toBeLessThanOrEqual(AGENT_LIMITS.containersMax);
    expect(warnings).toEqual([]);
  }, 20_000);

  it('leaves out a failing source alone and logs it once, not every report', async () => {
    rmSync(join(dir, 'diskstats'));
    systemctl.mockRejectedValue(new Error('Command failed: systemctl show\nFailed to connect to bus'));
    const sut = new Collector({ ...OPTIONS, services: ['nginx.service'] }, sources);
    const [first, second] = [await sut.report(), await sut.report()];
    for (const report of [first, second]) {
      expect(report).not.toHaveProperty('disk_io');
      expect(report).not.toHaveProperty('services');
      expect(report.sensors).toHaveLength(1);
      expect(report.containers).toHaveLength(4);
    }
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/^Per-disk I\/O: ENOENT/m);
    expect(warnings.join('\n')).toMatch(/^Services: systemctl show failed: Command failed: systemctl show$/m);
  }, 20_000);

  it('stops asking for services on a host without systemctl', async () => {
    systemctl.mockRejectedValue(Object.assign(new Error('spawn systemctl ENOENT'), { code: 'ENOENT' }));
    const sut = new Collector({ ...OPTIONS, services: ['nginx.service'] }, sources);
    await sut.report();
    const second = await sut.report();
    expect(second).not.toHaveProperty('services');
    expect(systemctl).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual(['Services: systemctl not found: services are not reported']);
  }, 20_000);

  it('sends containers: null when the engine cannot be read, or with --no-containers', async () => {
    const absent = new Collector(OPTIONS, { ...sources, engineSockets: [join(dir, 'absent.sock')] });
    expect((await absent.report()).containers).toBeNull();
    expect((await absent.report()).containers).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/^No containers: .*absent\.sock GET \/containers\/json: ENOENT$/)]);

    const off = await new Collector({ ...OPTIONS, containers: false }, sources).report();
    expect(off.containers).toBeNull();
    expect(engine.asked).toEqual([]);
  }, 20_000);

  it('leaves out temperatures and disk I/O where the host has none to give', async () => {
    const report = await new Collector(OPTIONS, { ...sources, platform: 'darwin', hwmon: join(dir, 'absent') }).report();
    expect(report).not.toHaveProperty('disk_io');
    expect(report).not.toHaveProperty('sensors');
    expect(warnings).toEqual([]);
  }, 20_000);
});

import { Collector } from './collector';

describe('collector on this machine', () => {
  const collector = new Collector({ name: 'spec', disks: null, interfaces: null, interval: 60, agentVersion: 'spec' });

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
    }
    expect(second.timestamp).toBeGreaterThanOrEqual(first.timestamp);
  }, 20_000);
});

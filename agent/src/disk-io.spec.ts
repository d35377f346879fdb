import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskIoCollector, diskIoSince, parseDiskstats } from './disk-io';

const FIXTURES = join(__dirname, 'fixtures');

describe('per-disk I/O from /proc/diskstats', () => {
  let sysBlock: string;
  let diskstats: string;

  beforeEach(() => {
    // The kernel marks partitions with a `partition` file; the fixture tree does the same for sda1 and nvme0n1p1.
    sysBlock = mkdtempSync(join(tmpdir(), 'vigil-block-'));
    for (const name of ['sda', 'sda1', 'nvme0n1', 'nvme0n1p1', 'dm-0', 'loop0']) mkdirSync(join(sysBlock, name));
    for (const name of ['sda1', 'nvme0n1p1']) writeFileSync(join(sysBlock, name, 'partition'), '1\n');
    diskstats = join(sysBlock, 'diskstats');
  });
  afterEach(() => rmSync(sysBlock, { recursive: true, force: true }));

  /** Two reads of the fixture files, 10 s apart. */
  async function twoReads(devices: string[] | null) {
    let now = 1_000_000;
    const sut = new DiskIoCollector({ devices, diskstats, sysBlock, now: () => now });
    copyFileSync(join(FIXTURES, 'diskstats-1.txt'), diskstats);
    const first = await sut.read();
    now += 10_000;
    copyFileSync(join(FIXTURES, 'diskstats-2.txt'), diskstats);
    return { first, second: await sut.read() };
  }

  it('reports whole disks only, with rates 0 on the first read', async () => {
    const { first } = await twoReads(null);
    expect(first).toEqual([
      { device: 'sda', read_rate: 0, write_rate: 0, busy: 0 },
      { device: 'nvme0n1', read_rate: 0, write_rate: 0, busy: 0 },
    ]);
  });

  it('turns sector and io_ticks deltas into KB/s and busy %, and a counter reset into 0', async () => {
    const { second } = await twoReads(null);
    expect(second).toEqual([
      // 20,480 sectors read and 40,960 written in 10 s; 2,500 ms of 10,000 busy.
      { device: 'sda', read_rate: 1024, write_rate: 2048, busy: 25 },
      // Counters went down (a reboot between reads): no trustworthy rate.
      { device: 'nvme0n1', read_rate: 0, write_rate: 0, busy: 0 },
    ]);
  });

  it('reports a device-mapper or loop device when it is named', async () => {
    const { second } = await twoReads(['dm-0', 'loop0']);
    expect(second).toEqual([
      { device: 'loop0', read_rate: 100, write_rate: 0, busy: 0.5 },
      { device: 'dm-0', read_rate: 1024, write_rate: 1024, busy: 25 },
    ]);
  });

  it.each([
    ['a short line', '8 0 sda 1 2 3', []],
    ['a counter that is not a number', '8 0 sda 1 0 x 0 0 0 0 0 0 0 0', []],
    ['an old kernel with 11 counters', '8 0 sdb 1 0 8 0 1 0 16 0 0 5 0', [['sdb', { sectorsRead: 8, sectorsWritten: 16, busyMs: 5 }]]],
  ])('parses %s', (_, text, expected) => {
    expect([...parseDiskstats(text)]).toEqual(expected);
  });

  it('never reports more than 100 % busy, however the clock moved', () => {
    const before = { at: 0, devices: new Map([['sda', { sectorsRead: 0, sectorsWritten: 0, busyMs: 0 }]]) };
    const after = { at: 1_000, devices: new Map([['sda', { sectorsRead: 0, sectorsWritten: 0, busyMs: 1_500 }]]) };
    expect(diskIoSince(before, after)[0].busy).toBe(100);
  });
});

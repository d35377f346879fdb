import type { AgentDto, AgentMetricPoint } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { loadPercent, THRESHOLD_RULES, type ThresholdMetric } from './host-rules';

type Stored = EventMap['agent.report_stored'];

const point: AgentMetricPoint = { time: '2026-11-28T00:00:00.000Z', cpu: 12, cpu_max: 20, memory: 40, disk: 55, rx: 0, tx: 0, load1: 3 };
const stored = (overrides: Partial<Stored> = {}, cores: number | null = 4): Stored => ({
  agent: { id: 1, name: 'db', cpu_cores: cores } as AgentDto,
  point,
  interfaces: [],
  insight: null,
  ...overrides,
});

describe('load per core', () => {
  it.each([
    [3, 4, 75],
    [8, 4, 200],
    [0, 2, 0],
    [3, null, null],
    [3, 0, null],
    [null, 4, null],
  ])('load1 %p on %p cores is %p %', (load1, cores, expected) => {
    expect(loadPercent(load1, cores)).toBe(expected);
  });
});

describe('where each threshold reads its figure', () => {
  const sensors = [
    { name: 'coretemp Package id 0', celsius: 71 },
    { name: 'nvme Composite', celsius: 83.5 },
    { name: 'acpitz temp1', celsius: 40 },
  ];
  const disks = [
    { device: 'sda', read_rate: 10, write_rate: 20, busy: 12 },
    { device: 'nvme0n1', read_rate: 900, write_rate: 50, busy: 97 },
  ];
  const interfaces = [
    { name: 'eth0', rx_rate: 120, tx_rate: 9_000 },
    { name: 'eth1', rx_rate: 4_000, tx_rate: 10 },
  ];

  it.each<[string, ThresholdMetric, Stored, { value: number; item?: string } | null]>([
    ['CPU from the stored point', 'cpu', stored(), { value: 12 }],
    ['memory from the stored point', 'memory', stored(), { value: 40 }],
    ['no memory figure: not judged', 'memory', stored({ point: { ...point, memory: null } }), null],
    ['disk from the stored point', 'disk', stored(), { value: 55 }],
    ['load per core', 'load', stored(), { value: 75 }],
    ['load of a host whose core count is unknown: not judged', 'load', stored({}, null), null],
    ['the hottest sensor, named', 'temperature', stored({ insight: { sensors } }), { value: 83.5, item: 'nvme Composite' }],
    ['no sensors reported: not judged', 'temperature', stored({ insight: { sensors: [] } }), null],
    ['a protocol 1 report: not judged', 'temperature', stored(), null],
    ['the busiest disk, named', 'diskIo', stored({ insight: { disk_io: disks } }), { value: 97, item: 'nvme0n1' }],
    ['no disk I/O reported: not judged', 'diskIo', stored({ insight: {} }), null],
    ['the busiest interface, either direction', 'bandwidth', stored({ interfaces }), { value: 9_000, item: 'eth0' }],
    ['no interfaces: not judged', 'bandwidth', stored(), null],
  ])('%s', (_, metric, input, expected) => {
    expect(THRESHOLD_RULES[metric].read(input)).toEqual(expected);
  });

  it('names a settings flag and threshold, and a high and a recovery event, for every metric', () => {
    for (const rule of Object.values(THRESHOLD_RULES)) {
      expect(rule.flag).toMatch(/^on_\w+_threshold$/);
      expect(rule.threshold).toBe(rule.flag.slice(3));
      expect(rule.high).toMatch(/^agent\.\w+_high$/);
      expect(rule.recovery).toBe(rule.high.replace(/_high$/, '_recovery'));
    }
  });
});

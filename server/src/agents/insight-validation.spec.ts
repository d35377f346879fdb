import { AGENT_LIMITS } from '@vigil/proto';
import { checkReport } from './agent-validation';

const NOW = Date.UTC(2026, 10, 28, 12);
const base = { timestamp: NOW, cpu: 10, memory_total: 100, memory_used: 50, disks: [], interfaces: [] };
const container = (overrides: Record<string, unknown> = {}) => ({
  id: '0123456789abcdef0123',
  name: 'web',
  image: 'nginx:1.27',
  state: 'running',
  health: 'healthy',
  cpu: 1.5,
  memory_used: 10_000_000,
  memory_limit: 0,
  net_rx_rate: 1,
  net_tx_rate: 2,
  block_read_rate: 0,
  block_write_rate: 0,
  ...overrides,
});

describe('protocol 2 report items', () => {
  it('keeps disk I/O, sensors, containers (short ids) and services as sent', () => {
    const checked = checkReport(
      {
        ...base,
        disk_io: [{ device: 'sda', read_rate: 12.5, write_rate: 3, busy: 40 }],
        sensors: [{ name: 'coretemp Package id 0', celsius: 54, high: 80, critical: 100 }],
        containers: [container()],
        services: [{ name: 'nginx.service', state: 'active', sub_state: 'running' }],
      },
      NOW,
    );
    expect(checked).toEqual({
      ok: true,
      value: expect.objectContaining({
        disk_io: [{ device: 'sda', read_rate: 12.5, write_rate: 3, busy: 40 }],
        sensors: [{ name: 'coretemp Package id 0', celsius: 54, high: 80, critical: 100 }],
        containers: [container({ id: '0123456789ab' })],
        services: [{ name: 'nginx.service', state: 'active', sub_state: 'running' }],
      }),
    });
  });

  it('tells "cannot see containers" (null) from none, and a protocol 1 report has no parts at all', () => {
    expect(checkReport({ ...base, containers: null }, NOW)).toMatchObject({ ok: true, value: { containers: null } });
    expect(checkReport({ ...base, containers: [] }, NOW)).toMatchObject({ ok: true, value: { containers: [] } });
    const v1 = checkReport(base, NOW);
    expect(v1.ok && Object.keys(v1.value)).not.toEqual(expect.arrayContaining(['containers', 'sensors', 'disk_io', 'services']));
  });

  it.each([
    [
      'a name with a control character',
      { containers: [container({ name: 'we\u0007b' })] },
      'report.containers[0].name must not contain control characters',
    ],
    ['an unknown state', { containers: [container({ state: 'zombie' })] }, 'report.containers[0].state must be one of'],
    ['a non-hex id', { containers: [container({ id: 'not-an-id-at-all' })] }, "report.containers[0].id must be the container's hex id"],
    ['an absurd temperature', { sensors: [{ name: 't', celsius: 5000 }] }, 'report.sensors[0].celsius must be from -60 to 200'],
    [
      'a sensor name too long',
      { sensors: [{ name: 'x'.repeat(500), celsius: 40 }] },
      'report.sensors[0].name must be at most 128 characters',
    ],
    [
      'busy over 100 %',
      { disk_io: [{ device: 'sda', read_rate: 0, write_rate: 0, busy: 101 }] },
      'report.disk_io[0].busy must be from 0 to 100',
    ],
    ['an unknown service state', { services: [{ name: 'x.service', state: 'melted' }] }, 'report.services[0].state must be one of'],
    ['a list that is not one', { sensors: 'hot' }, 'report.sensors must be a list'],
  ])('refuses %s by item, naming it, and keeps the report', (_, parts, error) => {
    const checked = checkReport({ ...base, ...parts }, NOW);
    expect(checked.ok).toBe(true);
    expect(checked.ok && checked.refused).toEqual([expect.stringContaining(error)]);
    expect(checked.ok && checked.value.cpu).toBe(10);
  });

  it('keeps the good items beside a bad one, and the first of a repeated id', () => {
    const checked = checkReport({ ...base, containers: [container(), container({ name: 42 }), container({ name: 'again' })] }, NOW);
    expect(checked.ok && checked.value.containers?.map((c) => c.name)).toEqual(['web']);
    expect(checked.ok && checked.refused).toEqual(['report.containers[1].name must be text', 'report.containers[2] repeats 0123456789ab']);
  });

  it('keeps the first items of an oversized list and says how many were left out', () => {
    const many = Array.from({ length: AGENT_LIMITS.containersMax + 7 }, (_, i) =>
      container({ id: i.toString(16).padStart(12, '0'), name: `c${i}` }),
    );
    const checked = checkReport({ ...base, containers: many }, NOW);
    expect(checked.ok && checked.value.containers).toHaveLength(AGENT_LIMITS.containersMax);
    expect(checked.ok && checked.refused).toEqual([`report.containers must have at most ${AGENT_LIMITS.containersMax} items: 7 left out`]);
  });

  it('still refuses the whole report for a broken core figure', () => {
    expect(checkReport({ ...base, cpu: 500, containers: [container()] }, NOW)).toEqual({
      ok: false,
      error: 'report.cpu must be from 0 to 100',
    });
  });
});

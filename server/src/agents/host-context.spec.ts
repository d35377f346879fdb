import { HOST_CONTEXT_LIMITS } from '@vigil/proto';
import { hostContextOf, type HostContextRow } from './host-context';

const row = (overrides: Partial<HostContextRow> = {}): HostContextRow => ({
  id: 4,
  name: 'web-1',
  hostname: 'web-1.internal',
  status: 'active',
  offline_since: new Date('2026-11-23T08:00:00Z'),
  reported_at: new Date('2026-11-23T08:14:00Z'),
  cpu: 97.04,
  memory: 91.26,
  swap: null,
  disk_mount: '/',
  disk_percent: 99.44,
  load1: 3.2049,
  load5: 2.1,
  load15: 1.05,
  containers: null,
  services: null,
  alerts: [],
  ...overrides,
});

describe('host context', () => {
  it('rounds the last figures and names the fullest disk', () => {
    const sut = hostContextOf(row());
    expect(sut.agent).toEqual({ id: 4, name: 'web-1', hostname: 'web-1.internal', status: 'active' });
    expect(sut.reported_at).toBe('2026-11-23T08:14:00.000Z');
    expect(sut.figures).toEqual({ cpu: 97, memory: 91.3, swap: null, disk: { mount: '/', percent: 99.4 }, load: [3.2, 2.1, 1.05] });
    expect(sut.changes).toEqual([]);
    expect(sut.more_changes).toBe(0);
  });

  it.each([
    ['online', 'active', null],
    ['offline', 'inactive', '2026-11-23T08:00:00.000Z'],
    ['never connected', 'connecting', null],
  ] as const)('tells when it went offline only while it is (%s)', (_, status, expected) => {
    expect(hostContextOf(row({ status })).offline_since).toBe(expected);
  });

  it('leaves out figures the agent never sent', () => {
    const sut = hostContextOf(row({ cpu: null, memory: null, disk_mount: null, disk_percent: null, load1: null, reported_at: null }));
    expect(sut.figures).toEqual({ cpu: null, memory: null, swap: null, disk: null, load: null });
    expect(sut.reported_at).toBeNull();
  });

  it('tells containers and units in trouble first, then the alerts newest first', () => {
    const sut = hostContextOf(
      row({
        containers: [{ name: 'api', state: 'exited', health: 'none' }],
        services: [{ name: 'nginx.service', state: 'failed' }],
        alerts: [
          { metric: 'temperature', item: 'nvme Composite', opened_at: '2026-11-23T08:10:00+00:00', closed_at: null },
          { metric: 'cpu', item: '', opened_at: '2026-11-23T08:05:00+00:00', closed_at: '2026-11-23T08:07:00+00:00' },
        ],
      }),
    );
    expect(sut.changes).toEqual([
      { kind: 'container', name: 'api', state: 'exited', health: 'none', since: null },
      { kind: 'service', name: 'nginx.service', state: 'failed', since: null },
      { kind: 'alert', metric: 'temperature', item: 'nvme Composite', opened_at: '2026-11-23T08:10:00.000Z', closed_at: null },
      { kind: 'alert', metric: 'cpu', item: null, opened_at: '2026-11-23T08:05:00.000Z', closed_at: '2026-11-23T08:07:00.000Z' },
    ]);
  });

  it('dates a container by the alert naming it, and does not tell that alert again', () => {
    const sut = hostContextOf(
      row({
        containers: [
          { name: 'worker', state: 'running', health: 'unhealthy' },
          { name: 'api', state: 'exited', health: 'none' },
        ],
        alerts: [{ metric: 'containerDown', item: 'api', opened_at: '2026-11-23T08:13:00Z', closed_at: null }],
      }),
    );
    expect(sut.changes).toEqual([
      { kind: 'container', name: 'api', state: 'exited', health: 'none', since: '2026-11-23T08:13:00.000Z' },
      { kind: 'container', name: 'worker', state: 'running', health: 'unhealthy', since: null },
    ]);
  });

  it('tells at most the limit and counts the rest', () => {
    const containers = Array.from({ length: HOST_CONTEXT_LIMITS.changesMax + 3 }, (_, i) => ({
      name: `job-${i}`,
      state: 'exited' as const,
      health: 'none' as const,
    }));
    const sut = hostContextOf(row({ containers }));
    expect(sut.changes).toHaveLength(HOST_CONTEXT_LIMITS.changesMax);
    expect(sut.more_changes).toBe(3);
  });
});

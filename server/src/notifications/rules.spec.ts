import { agentDecision, degradedDecision, effectiveSettings, monitorDecision, TargetSettings, thresholdStep } from './rules';

const settings = (overrides: Partial<TargetSettings> = {}): TargetSettings => ({
  enabled: true,
  on_down: true,
  on_recovery: true,
  on_certificate_expiry: true,
  on_offline: true,
  on_cpu_threshold: true,
  cpu_threshold: 90,
  on_memory_threshold: false,
  memory_threshold: 85,
  on_disk_threshold: false,
  disk_threshold: 90,
  on_load_threshold: false,
  load_threshold: 100,
  on_temperature_threshold: false,
  temperature_threshold: 80,
  on_disk_io_threshold: false,
  disk_io_threshold: 90,
  on_bandwidth_threshold: false,
  bandwidth_threshold: 102_400,
  on_container_down: false,
  on_container_unhealthy: false,
  on_service_failed: false,
  channels: [1],
  override_global: false,
  on_degraded: false,
  reminder_minutes: null,
  escalation: [],
  ...overrides,
});

describe('settings resolution', () => {
  it.each([
    ['global only', settings(), undefined, 'global'],
    ['specific without override: global applies', settings(), settings({ channels: [2] }), 'global'],
    ['specific with override beats global', settings(), settings({ override_global: true, channels: [2] }), 'specific'],
    ['override with notifications off silences the target', settings(), settings({ override_global: true, enabled: false }), null],
    ['global disabled', settings({ enabled: false }), undefined, null],
    ['global without channels', settings({ channels: [] }), undefined, null],
    ['nothing configured', undefined, undefined, null],
    ['override on, no global', undefined, settings({ override_global: true }), 'specific'],
  ])('%s', (_, global, specific, expected) => {
    const result = effectiveSettings(global, specific);
    expect(result === null ? null : result === global ? 'global' : 'specific').toBe(expected);
  });
});

describe('status transitions', () => {
  it.each([
    ['up', 'down', { open: 'down' }],
    ['pending', 'down', { open: 'down' }],
    ['down', 'up', { close: 'recovery' }],
    ['up', 'pending', null],
    ['pending', 'up', { close: 'recovery' }],
    ['down', 'pending', null],
    ['up', 'degraded', null],
    ['down', 'degraded', { close: 'recovery' }],
    ['degraded', 'up', null],
    ['up', 'unreachable', null],
    ['down', 'unreachable', null],
    ['unreachable', 'down', { open: 'down' }],
    ['unreachable', 'up', { close: 'recovery' }],
  ] as const)('monitor %s → %s', (previous, status, expected) => {
    expect(monitorDecision(previous, status)).toEqual(expected);
  });

  it.each([
    ['up', 'degraded', { open: true }],
    ['down', 'degraded', { open: true }],
    ['degraded', 'up', { close: true }],
    ['degraded', 'down', { close: false }],
    ['degraded', 'unreachable', { close: false }],
    ['up', 'down', null],
  ] as const)('degraded spell %s → %s', (previous, status, expected) => {
    expect(degradedDecision(previous, status)).toEqual(expected);
  });

  it.each([
    ['active', 'inactive', { open: 'offline' }],
    ['connecting', 'inactive', { open: 'offline' }],
    ['inactive', 'connecting', null],
    ['connecting', 'active', { close: 'recovery' }],
    ['inactive', 'active', { close: 'recovery' }],
  ] as const)('agent %s → %s', (previous, status, expected) => {
    expect(agentDecision(previous, status)).toEqual(expected);
  });
});

describe('threshold episodes', () => {
  function run(values: number[], threshold = 90, window = 3) {
    let state = { streak: 0, open: false };
    return values.map((value) => {
      const step = thresholdStep(state, value, threshold, window);
      state = step.state;
      return step.fire;
    });
  }

  it('alerts once after the window, and recovers once', () => {
    expect(run([95, 95, 95, 99, 97, 80, 70])).toEqual([null, null, 'high', null, null, 'recovery', null]);
  });

  it('a dip below resets the streak', () => {
    expect(run([95, 95, 50, 95, 95, 95])).toEqual([null, null, null, null, null, 'high']);
  });

  it('equal to the threshold is not above it', () => {
    expect(run([90, 90, 90, 90])).toEqual([null, null, null, null]);
  });

  it('a window of one alerts at once', () => {
    expect(run([91, 50], 90, 1)).toEqual(['high', 'recovery']);
  });
});

import { evaluateAssertions } from '../../checkers/assertions';
import type { AddedCheckTarget } from '../../checkers/checker';
import type { ContainerHost } from './container-hosts';
import { ContainerChecker, containerProbe } from './container.checker';
import recorded from './fixtures/container-hosts.json';

/** Rows as `ContainerHosts.read` answers them, recorded from agents reporting the Engine API fixtures' containers. */
const rows = recorded as Record<keyof typeof recorded, ContainerHost>;
const checkedAt = new Date('2026-11-28T12:00:00.000Z');
const probe = (row: ContainerHost | null, name = 'web') => containerProbe(row, 4, name, checkedAt);

describe('a container check judging its agent’s last report', () => {
  it.each<[string, ContainerHost | null, string, boolean, string | null]>([
    ['running without a health check', rows.running, 'web', true, null],
    ['running and healthy', rows.healthy, 'db', true, null],
    ['running while its health check is starting', rows.starting, 'db', true, null],
    ['unhealthy', rows.unhealthy, 'api', false, 'Container api is unhealthy'],
    ['exited', rows.exited, 'web', false, 'Container web is exited'],
    ['missing from the list', rows.missing, 'web', false, 'Container web not found on web-1'],
    [
      'the agent cannot read its engine',
      rows.engineUnreadable,
      'web',
      false,
      'Agent web-1 cannot read its container engine (no readable Docker or Podman socket)',
    ],
    ['a protocol 1 agent', rows.protocol1, 'web', false, 'Agent legacy-1 does not report containers (an agent older than protocol 2)'],
    ['the agent silent for three intervals', rows.silent, 'web', false, 'Agent web-1 silent: no report for 182 s (it reports every 60 s)'],
    ['an agent that never reported', rows.neverReported, 'web', false, 'Agent new-1 has not reported yet'],
    ['an agent that does not exist', null, 'web', false, 'Agent #4 does not exist'],
  ])('%s', (_, row, name, ok, error) => {
    expect(probe(row, name)).toMatchObject({ ok, error, statusCode: null, responseTime: null, checkedAt });
  });

  it('observes the state, health, CPU % and memory bytes for assertions', () => {
    const result = probe(rows.healthy, 'db');
    expect(result.observed.metrics).toEqual({ state: 'running', health: 'healthy', cpu: 4.75, memory: 268435456 });
    const outcomes = evaluateAssertions(
      [
        { source: 'cpu', operator: 'lt', value: 80 },
        { source: 'memory', operator: 'lt', value: 200_000_000 },
        { source: 'state', operator: 'eq', value: 'running' },
      ],
      result,
    );
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true]);
  });

  it('trusts a report up to three intervals old', () => {
    expect(probe({ ...rows.running, silent_s: 180 }).ok).toBe(true);
    expect(probe({ ...rows.running, silent_s: 180.5 }).ok).toBe(false);
  });
});

describe(ContainerChecker.name, () => {
  const target = {
    id: 1,
    type: 'container',
    scope: 'admin',
    hostname: '',
    port: null,
    url: '',
    timeout: 5,
    assertions: [],
    settings: { agentId: 4, containerName: 'db' },
  } as AddedCheckTarget<'container'>;

  it('reads the named container of the named agent and connects nowhere', async () => {
    const read = jest.fn().mockResolvedValue(rows.healthy);
    const sut = new ContainerChecker({ read });
    expect(await sut.check(target)).toMatchObject({ ok: true, error: null });
    expect(read).toHaveBeenCalledWith(4, 'db');
    expect(sut.endpoint()).toBeNull();
  });

  it('fails the check, not the scheduler, when the report cannot be read', async () => {
    const sut = new ContainerChecker({ read: jest.fn().mockRejectedValue(new Error('connection terminated')) });
    expect(await sut.check(target)).toMatchObject({ ok: false, error: "The agent's last report could not be read" });
  });
});

import type { AgentContainerReport, AgentDto, AgentServiceReport } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import type { AlertState } from './alert-state.repository';
import { decideItems, type ItemMetric } from './host-item-rules';

type Stored = EventMap['agent.report_stored'];

const WINDOW = 2;
const at = new Date('2026-11-28T00:00:00.000Z');
const container = (name: string, state: AgentContainerReport['state'], health: AgentContainerReport['health'] = 'none') =>
  ({ id: 'abcdef012345', name, image: `${name}:1`, state, health, cpu: 1, memory_used: 1, memory_limit: 0 }) as AgentContainerReport;
const report = (insight: Stored['insight']): Stored => ({
  agent: { id: 7, name: 'db' } as AgentDto,
  point: { time: at.toISOString(), cpu: 1, cpu_max: 1, memory: 1, disk: 1, rx: 0, tx: 0, load1: null },
  interfaces: [],
  insight,
});
const containers = (...list: AgentContainerReport[]) => report({ containers: list });
const services = (...list: AgentServiceReport[]) => report({ services: list });

/**
 * Feeds the reports one by one through `decideItems`, carrying each item's row from one report to the next as the
 * service does, and lists what fired: `open web`, `close web`, `quiet web` (closed without a message).
 */
function run(metric: ItemMetric, reports: Stored[], watching = true): { fired: string[]; rows: AlertState[] } {
  const rows = new Map<string, AlertState>();
  const fired: string[] = [];
  for (const stored of reports) {
    for (const decision of decideItems(metric, stored, [...rows.values()], watching, WINDOW, at)) {
      if (decision.fire) fired.push(`${decision.fire} ${decision.item}`);
      if (!decision.after) rows.delete(decision.item);
      else if (decision.save || rows.has(decision.item)) rows.set(decision.item, decision.after);
    }
  }
  return { fired, rows: [...rows.values()] };
}

describe('container down', () => {
  const up = containers(container('web', 'running'), container('job', 'exited'));
  const stopped = containers(container('web', 'exited'), container('job', 'exited'));
  const gone = containers(container('job', 'exited'));

  it.each<[string, Stored[], string[]]>([
    ['a running container is watched, nothing fires', [up, up, up], []],
    ['one report stopped is not yet an alert', [up, stopped, up], []],
    ['stopped for the window: one alert, then quiet while it stays down', [up, stopped, stopped, stopped], ['open web']],
    ['running again: one recovery', [up, stopped, stopped, up], ['open web', 'close web']],
    ['missing from the list counts as down', [up, gone, gone, up], ['open web', 'close web']],
    ['a container never seen running (a finished job) is never judged', [stopped, stopped, stopped], []],
    ['paused is not running', [up, containers(container('web', 'paused')), containers(container('web', 'paused'))], ['open web']],
    [
      'an engine the agent cannot read says nothing: streaks and episodes stay',
      [up, stopped, report({ containers: null }), stopped],
      ['open web'],
    ],
    ['a protocol 1 report says nothing', [up, stopped, report(null), stopped], ['open web']],
  ])('%s', (_, reports, fired) => {
    expect(run('containerDown', reports).fired).toEqual(fired);
  });

  it('keeps a row for a running container, so its later stop is news; none for one never seen running', () => {
    expect(run('containerDown', [up]).rows).toEqual([
      expect.objectContaining({ item: 'web', metric: 'containerDown', streak: 0, open: false }),
    ]);
  });

  it('names the state the container was seen in, and "missing" for one gone from the list', () => {
    const [stoppedDecision] = decideItems('containerDown', stopped, run('containerDown', [up]).rows, true, WINDOW, at);
    expect(stoppedDecision.vars).toEqual({ state: 'exited', image: 'web:1', health: 'none' });
    const [missing] = decideItems('containerDown', gone, run('containerDown', [up]).rows, true, WINDOW, at);
    expect(missing).toMatchObject({ item: 'web', vars: { state: 'missing', image: null } });
  });

  it('switched off: forgets every container, closing an open episode without a message', () => {
    const { rows } = run('containerDown', [up, stopped, stopped]);
    const decisions = decideItems('containerDown', stopped, rows, false, WINDOW, at);
    expect(decisions).toEqual([expect.objectContaining({ item: 'web', after: null, fire: 'quiet' })]);
  });
});

describe('container unhealthy', () => {
  const healthy = containers(container('api', 'running', 'healthy'));
  const sick = containers(container('api', 'running', 'unhealthy'));

  it.each<[string, Stored[], string[]]>([
    ['healthy throughout', [healthy, healthy], []],
    ['unhealthy for the window, then healthy', [healthy, sick, sick, sick, healthy], ['open api', 'close api']],
    ['starting is not unhealthy', [sick, sick, containers(container('api', 'running', 'starting'))], ['open api', 'close api']],
    [
      'a container without a health check never alerts',
      [containers(container('api', 'running')), containers(container('api', 'running'))],
      [],
    ],
    [
      'stopping while unhealthy closes it quietly: the down rule speaks for it',
      [sick, sick, containers(container('api', 'exited'))],
      ['open api', 'quiet api'],
    ],
    ['vanishing while unhealthy closes it quietly', [sick, sick, containers()], ['open api', 'quiet api']],
  ])('%s', (_, reports, fired) => {
    expect(run('containerUnhealthy', reports).fired).toEqual(fired);
  });
});

describe('service failed', () => {
  const ok = services({ name: 'nginx.service', state: 'active', sub_state: 'running' });
  const failed = services({ name: 'nginx.service', state: 'failed', sub_state: 'failed' });

  it.each<[string, Stored[], string[]]>([
    ['active throughout', [ok, ok], []],
    ['failed for the window, then active', [ok, failed, failed, ok], ['open nginx.service', 'close nginx.service']],
    [
      'inactive is not failed',
      [failed, failed, services({ name: 'nginx.service', state: 'inactive' })],
      ['open nginx.service', 'close nginx.service'],
    ],
    ['a unit no longer watched is forgotten quietly', [failed, failed, services()], ['open nginx.service', 'quiet nginx.service']],
    ['a report without units says nothing', [failed, report({}), failed], ['open nginx.service']],
  ])('%s', (_, reports, fired) => {
    expect(run('serviceFailed', reports).fired).toEqual(fired);
  });

  it('carries the unit state and sub-state for the message', () => {
    const [decision] = decideItems('serviceFailed', failed, [], true, WINDOW, at);
    expect(decision.vars).toEqual({ state: 'failed', sub_state: 'failed' });
  });
});

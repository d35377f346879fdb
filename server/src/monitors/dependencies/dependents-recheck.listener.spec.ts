import type { AgentDto, MonitorDto, MonitorStatus } from '@vigil/proto';
import type { DataSource } from 'typeorm';
import type { CheckScheduler } from '../check-scheduler.service';
import { monitorRow } from '../monitor-fixtures.testing';
import type { MonitorsRepository } from '../monitors.repository';
import type { DependenciesRepository, Dependent } from './dependencies.repository';
import { DependentsRecheck } from './dependents-recheck.listener';

const dependent = (id: number, status: MonitorStatus, active = true): Dependent => ({
  ref: { type: 'monitor', id },
  name: `m${id}`,
  status,
  unreachable: false,
  active,
  depth: 1,
});

describe(DependentsRecheck.name, () => {
  const dependents = [dependent(2, 'pending'), dependent(3, 'unreachable'), dependent(4, 'up'), dependent(5, 'unreachable', false)];
  let scheduled: number[];
  let sut: DependentsRecheck;

  beforeEach(() => {
    scheduled = [];
    const dependencies = { dependentsOf: jest.fn().mockResolvedValue(dependents) } as unknown as DependenciesRepository;
    const monitors = { findById: jest.fn(async (id: number) => monitorRow({ id })) } as unknown as MonitorsRepository;
    const scheduler = {
      schedule: jest.fn(async (monitor: { id: number }, options: { checkNow: boolean }) => options.checkNow && scheduled.push(monitor.id)),
    } as unknown as CheckScheduler;
    sut = new DependentsRecheck({} as DataSource, dependencies, monitors, scheduler);
  });

  const monitorChange = (previous: MonitorStatus, status: MonitorStatus) =>
    sut.monitorChanged({ monitor: { id: 1 } as MonitorDto, previous, status, check: {} as never });

  it.each([
    ['goes down: its pending dependents, so they turn unreachable before their retries run out', 'up', 'down', [2]],
    ['turns unreachable itself: the same', 'pending', 'unreachable', [2]],
    ['comes back: its unreachable dependents, down or up within seconds', 'down', 'up', [3]],
    ['comes back degraded: the same', 'unreachable', 'degraded', [3]],
    ['moves between down and unreachable: nothing', 'down', 'unreachable', []],
    ['moves between up and pending: nothing', 'up', 'pending', []],
  ] as Array<[string, MonitorStatus, MonitorStatus, number[]]>)('a dependency that %s', async (_name, previous, status, expected) => {
    await monitorChange(previous, status);
    expect(scheduled).toEqual(expected);
  });

  it('re-checks the unreachable dependents of an agent back online, the pending ones of one gone offline', async () => {
    await sut.agentChanged({
      agent: { id: 9 } as AgentDto,
      previous: 'inactive',
      previousUnreachable: true,
      status: 'connecting',
      changedAt: '',
    });
    expect(scheduled).toEqual([3]);
    scheduled = [];
    await sut.agentChanged({
      agent: { id: 9 } as AgentDto,
      previous: 'active',
      previousUnreachable: false,
      status: 'inactive',
      changedAt: '',
    });
    expect(scheduled).toEqual([2]);
  });
});

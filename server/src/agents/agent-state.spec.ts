import type { AgentStatus, DependencyRef } from '@vigil/proto';
import type { DependencyState } from '../monitors/dependencies/dependencies.repository';
import { unreachableCause } from './agent-state';

const router: DependencyState = { ref: { type: 'monitor', id: 1 }, name: 'router', status: 'down', active: true };
const gateway: DependencyState = { ref: { type: 'agent', id: 2 }, name: 'gateway', status: 'inactive', active: true };
const up = (state: DependencyState, status: DependencyState['status']) => ({ ...state, status });

describe('unreachableCause', () => {
  it.each([
    ['offline behind a down monitor', 'inactive', [router.ref], [router], 'router'],
    ['offline behind an unreachable monitor', 'inactive', [router.ref], [up(router, 'unreachable')], 'router'],
    ['offline behind an offline agent', 'inactive', [gateway.ref], [gateway], 'gateway'],
    ['offline behind a paused down monitor', 'inactive', [router.ref], [{ ...router, active: false }], null],
    ['offline with its dependencies up', 'inactive', [router.ref, gateway.ref], [up(router, 'up'), up(gateway, 'active')], null],
    ['offline without dependencies', 'inactive', [], [], null],
    ['online behind a down monitor', 'active', [router.ref], [router], null],
    ['connecting behind a down monitor', 'connecting', [router.ref], [router], null],
  ] as Array<[string, AgentStatus, DependencyRef[], DependencyState[], string | null]>)('%s → %s', (_name, status, refs, states, cause) => {
    expect(unreachableCause(status, refs, states)?.name ?? null).toBe(cause);
  });
});

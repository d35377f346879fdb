import type { AgentStatus, DependencyRef, MonitorStatus } from '@vigil/proto';
import { isDown } from '../monitors/monitor-state';
import type { DependencyState } from '../monitors/dependencies/dependencies.repository';

/**
 * Why an agent is `unreachable`, or null: offline while one of its dependencies is down (a monitor down or
 * unreachable, an agent offline), so its silence is not its own fault. Decided when it goes offline, on the
 * dependencies' states read in that transaction, and kept until it is back (any status but `inactive` clears it).
 */
export function unreachableCause(status: AgentStatus, dependsOn: DependencyRef[], states: DependencyState[]): DependencyState | null {
  if (status !== 'inactive' || !dependsOn.length) return null;
  const byKey = new Map(states.map((state) => [`${state.ref.type}:${state.ref.id}`, state]));
  const monitor = (id: number) => {
    const state = byKey.get(`monitor:${id}`);
    return state && { status: state.status as MonitorStatus, active: state.active };
  };
  const agents = new Map(states.filter((s) => s.ref.type === 'agent').map((s) => [s.ref.id, s.status as AgentStatus]));
  const down = dependsOn.find((ref) => isDown(ref, monitor, agents));
  return down ? byKey.get(`${down.type}:${down.id}`)! : null;
}

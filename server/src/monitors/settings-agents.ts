import { HttpStatus } from '@nestjs/common';
import { isAddedType, settingsFields, typeSpec, type DependencyRef, type MonitorType } from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import type { MonitorRow } from './monitor.types';

type Settings = Record<string, unknown> | null | undefined;

/** The agents an added type's settings name (its spec's `ref: 'agent'` fields), by field name. */
export function settingsAgents(type: MonitorType, settings: Settings): Map<string, number> {
  const agents = new Map<string, number>();
  if (!isAddedType(type)) return agents;
  for (const field of settingsFields(typeSpec(type))) {
    const value = settings?.[field.name];
    if (field.ref === 'agent' && typeof value === 'number') agents.set(field.name, value);
  }
  return agents;
}

/**
 * `dependsOn` with the agents the settings name added (a container monitor depends on the agent reporting it, so it
 * is `unreachable`, not down, while that agent is offline), and those the previous settings named dropped.
 */
export function withSettingsAgents(dependsOn: readonly DependencyRef[], before: number[], after: number[]): DependencyRef[] {
  const dropped = new Set(before.filter((id) => !after.includes(id)));
  const kept = dependsOn.filter((ref) => !(ref.type === 'agent' && dropped.has(ref.id)));
  const missing = after.filter((id) => !kept.some((ref) => ref.type === 'agent' && ref.id === id));
  return [...kept, ...missing.map((id) => ({ type: 'agent' as const, id }))];
}

/**
 * The `dependsOn` to store for a new or edited monitor whose settings name agents, or undefined when nothing changes;
 * an agent that does not exist is refused (400 naming the setting). `existing` answers which refs exist.
 */
export async function agentDependencies(
  next: { type: MonitorType; settings: Settings; dependsOn?: DependencyRef[] },
  current: Pick<MonitorRow, 'type' | 'settings' | 'depends_on'> | null,
  existing: (refs: DependencyRef[]) => Promise<DependencyRef[]>,
): Promise<DependencyRef[] | undefined> {
  const after = settingsAgents(next.type, next.settings);
  const before = current ? [...settingsAgents(current.type, current.settings).values()] : [];
  const ids = [...after.values()];
  if (!ids.length && !before.length) return undefined;
  const found = new Set((await existing(ids.map((id) => ({ type: 'agent', id })))).map((ref) => ref.id));
  for (const [field, id] of after) {
    if (!found.has(id)) throw new ApiException(HttpStatus.BAD_REQUEST, 'monitors.settingsAgentUnknown', undefined, undefined, field);
  }
  const dependsOn = next.dependsOn ?? current?.depends_on ?? [];
  const stored = withSettingsAgents(dependsOn, before, ids);
  const unchanged = next.dependsOn === undefined && stored.length === dependsOn.length && stored.every((ref, i) => ref === dependsOn[i]);
  return unchanged ? undefined : stored;
}

import type { AgentStatus, MonitorStatus } from '@vigil/proto';
import type { EntityManager } from 'typeorm';
import type { BatchContext, FlappingRule } from '../monitor-state';
import type { MonitorRow } from '../monitor.types';
import type { DependenciesRepository } from './dependencies.repository';

/**
 * What the batch's results are decided with beside their rows: each monitor's dependencies, and the states of those
 * outside the batch (monitors and agents), read in this transaction without locking them (`applyResults`).
 */
export async function dependencyContext(
  dependencies: DependenciesRepository,
  manager: EntityManager,
  locked: MonitorRow[],
  flapping: FlappingRule,
): Promise<Required<Omit<BatchContext, 'maintenance'>> & { names: Map<string, string> }> {
  const dependsOn = new Map(locked.filter((row) => row.depends_on?.length).map((row) => [row.id, row.depends_on]));
  const inBatch = new Set(locked.map((row) => row.id));
  const outside = [...dependsOn.values()].flat().filter((ref) => ref.type === 'agent' || !inBatch.has(ref.id));
  // Most batches have no dependencies at all: no statement then.
  const states = outside.length ? await dependencies.statesOf(outside, manager) : [];
  const names = new Map(locked.map((row) => [`monitor:${row.id}`, row.name]));
  const monitors = new Map<number, { status: MonitorStatus; active: boolean }>();
  const agents = new Map<number, AgentStatus>();
  for (const { ref, name, status, active } of states) {
    names.set(`${ref.type}:${ref.id}`, name);
    if (ref.type === 'monitor') monitors.set(ref.id, { status: status as MonitorStatus, active });
    else agents.set(ref.id, status as AgentStatus);
  }
  return { dependsOn, monitors, agents, names, flapping };
}

import type { DependencyRef } from '@vigil/proto';

/** `monitor:12` / `agent:3`: one node of the graph of monitors and agents. */
export const refKey = (ref: DependencyRef): string => `${ref.type}:${ref.id}`;

/** A node with its name (for messages) and what it depends on. */
export interface DependencyNode {
  ref: DependencyRef;
  name: string;
  dependsOn: DependencyRef[];
}

/**
 * The cycle `node` would close by depending on `dependsOn`, as the names along it ("a → b → a"), or null. The graph
 * is every stored node with dependencies, monitors and agents together; `node`'s stored list is replaced by the new one.
 */
export function findCycle(graph: DependencyNode[], node: DependencyNode): string[] | null {
  const nodes = new Map(graph.map((n) => [refKey(n.ref), n]));
  nodes.set(refKey(node.ref), node);
  const start = refKey(node.ref);
  const done = new Set<string>();
  // Depth first from the node: a path that comes back to it is the cycle.
  const walk = (key: string, path: string[]): string[] | null => {
    for (const next of nodes.get(key)?.dependsOn ?? []) {
      const nextKey = refKey(next);
      if (nextKey === start) return [...path, node.name];
      if (done.has(nextKey)) continue;
      done.add(nextKey);
      const found = walk(nextKey, [...path, nodes.get(nextKey)?.name ?? nextKey]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, [node.name]);
}

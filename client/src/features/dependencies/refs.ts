import type { DependencyRef } from '@vigil/proto';

/** A dependency as a picker value, `monitor:12` or `agent:3`: one string per option, unique across both kinds. */
export function refKey(ref: DependencyRef): string {
  return `${ref.type}:${ref.id}`;
}

export function refFromKey(key: string): DependencyRef | null {
  const match = /^(monitor|agent):(\d+)$/.exec(key);
  return match ? { type: match[1] as DependencyRef['type'], id: Number(match[2]) } : null;
}

export function sameRef(a: DependencyRef, b: DependencyRef): boolean {
  return a.type === b.type && a.id === b.id;
}

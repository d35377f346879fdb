/** What the picker offers: monitors, agents, and (for maintenance scopes) group monitors as groups. */
export type PickKind = 'monitor' | 'agent' | 'group';

export interface PickedRef {
  type: PickKind;
  id: number;
}

/** A picked component with its name, as a search answers it. */
export interface PickOption {
  ref: PickedRef;
  name: string;
}

/** `monitor:12`, `agent:3`, `group:7`: one string per component, unique across kinds. */
export function pickKey(ref: PickedRef): string {
  return `${ref.type}:${ref.id}`;
}

export function pickFromKey(key: string): PickedRef | null {
  const match = /^(monitor|agent|group):(\d+)$/.exec(key);
  return match ? { type: match[1] as PickKind, id: Number(match[2]) } : null;
}

/** Monitors and group monitors are both monitors: their names are one read, whichever kind picked them. */
export function nameKey(ref: PickedRef): string {
  return `${ref.type === 'agent' ? 'agent' : 'monitor'}:${ref.id}`;
}

/** Refs of one kind as ids, in order. */
export function idsOf(refs: readonly PickedRef[], type: PickKind): number[] {
  return refs.filter((ref) => ref.type === type).map((ref) => ref.id);
}

/** Ids of monitors, agents and groups as refs, in that order. */
export function refsOf(ids: { monitors?: readonly number[]; agents?: readonly number[]; groups?: readonly number[] }): PickedRef[] {
  return [
    ...(ids.monitors ?? []).map((id) => ({ type: 'monitor' as const, id })),
    ...(ids.agents ?? []).map((id) => ({ type: 'agent' as const, id })),
    ...(ids.groups ?? []).map((id) => ({ type: 'group' as const, id })),
  ];
}

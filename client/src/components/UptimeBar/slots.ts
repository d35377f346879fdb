/** One dot of an uptime bar: a status from the spec's list (or any string, shown as unknown) and an optional time. */
export interface UptimeSlot {
  status: string;
  timestamp?: string;
}

export type SlotTone = 'up' | 'down' | 'pending' | 'degraded' | 'unreachable' | 'maintenance' | 'unknown' | 'empty';
const TONES: readonly string[] = ['up', 'down', 'pending', 'degraded', 'unreachable', 'maintenance', 'empty'];

/** The spec's summary bar length (section 9). */
export const SUMMARY_SLOTS = 24;

/** The first `count` points, padded with empty slots to exactly `count` (spec section 5). */
export function uptimeSlots(points: readonly UptimeSlot[], count = SUMMARY_SLOTS): UptimeSlot[] {
  const shown = points.slice(0, count);
  return [...shown, ...Array.from({ length: count - shown.length }, () => ({ status: 'empty' }))];
}

/** Each status and empty keep their look; unknown and any other string are grey (spec sections 3 and 4). */
export function slotTone(status: string): SlotTone {
  return TONES.includes(status) ? (status as SlotTone) : 'unknown';
}

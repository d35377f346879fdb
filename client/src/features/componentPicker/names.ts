import { create } from 'zustand';
import { componentName } from './api';
import { nameKey, type PickedRef } from './refs';

/** Reads of single names at once: a page of chosen components is named quickly without flooding the server. */
export const NAME_READS_AT_ONCE = 6;

interface NamesState {
  /** Names by `monitor:<id>` / `agent:<id>`; null: the component no longer exists. */
  names: Record<string, string | null>;
  /** Keys whose read failed (not tried again until `retry`). */
  failed: Record<string, true>;
  /** Names a search brought along, so chosen components need no read of their own. */
  learn: (entries: ReadonlyArray<{ ref: PickedRef; name: string }>) => void;
  /** Reads the names of the refs not known yet (the rows on screen), a few at a time. */
  resolve: (refs: readonly PickedRef[]) => Promise<void>;
}

const inFlight = new Set<string>();

/** Names of chosen monitors and agents, shared by every picker: a list shows names, while forms hold only ids. */
export const useComponentNames = create<NamesState>()((set, get) => ({
  names: {},
  failed: {},

  learn(entries) {
    const names = get().names;
    const fresh = entries.filter((entry) => names[nameKey(entry.ref)] !== entry.name);
    if (fresh.length === 0) return;
    set({ names: { ...names, ...Object.fromEntries(fresh.map((entry) => [nameKey(entry.ref), entry.name])) } });
  },

  async resolve(refs) {
    const { names, failed } = get();
    const wanted = new Map<string, PickedRef>();
    for (const ref of refs) {
      const key = nameKey(ref);
      if (!(key in names) && !failed[key] && !inFlight.has(key)) wanted.set(key, ref);
    }
    const queue = [...wanted.entries()];
    for (const [key] of queue) inFlight.add(key);
    const read: Record<string, string | null> = {};
    const failedNow: Record<string, true> = {};
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, ref] = next;
        try {
          read[key] = await componentName(ref);
        } catch {
          failedNow[key] = true;
        } finally {
          inFlight.delete(key);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(NAME_READS_AT_ONCE, queue.length) }, worker));
    // One change for the whole page of names: the list re-renders once, not once per row.
    if (wanted.size > 0) set({ names: { ...get().names, ...read }, failed: { ...get().failed, ...failedNow } });
  },
}));

/** Forgets every name (tests). */
export function clearComponentNames(): void {
  inFlight.clear();
  useComponentNames.setState({ names: {}, failed: {} });
}

import { useSyncExternalStore } from 'react';

/** Durations and mutes on screen move on this often. */
export const CLOCK_TICK_MS = 30_000;

let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    // The first screen after a quiet spell starts from the real time, not the last tick.
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, CLOCK_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The time, shared by every screen that shows one relative to now, with one timer however many rows ask. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/** A started read: its signal, and whether it is still the latest one (only the latest may land). */
export interface Ticket {
  signal: AbortSignal;
  readonly current: boolean;
  /** Call when the read settled, whatever the outcome. */
  end(): void;
}

/**
 * One read in flight per screen: a new one aborts the previous, so a slow answer for an old filter or page never
 * lands over a newer one and never piles up behind it. `outer` (a polling tick's signal) aborts it too.
 */
export function latestRequest() {
  let inFlight: AbortController | null = null;
  return {
    start(outer?: AbortSignal): Ticket {
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      const forward = () => controller.abort();
      outer?.addEventListener('abort', forward);
      return {
        signal: controller.signal,
        get current() {
          return inFlight === controller && !controller.signal.aborted;
        },
        end() {
          outer?.removeEventListener('abort', forward);
          if (inFlight === controller) inFlight = null;
        },
      };
    },
    /** A read is on its way. */
    get busy(): boolean {
      return inFlight !== null;
    },
    abort(): void {
      inFlight?.abort();
      inFlight = null;
    },
  };
}

/**
 * A re-read that settles a burst of pushes the screen could not apply by itself: the first push schedules it, the
 * others in the burst join it, and a read made meanwhile cancels it.
 */
export function settleLater(delayMs: number, reread: () => void) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    schedule(): void {
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        reread();
      }, delayMs);
    },
    cancel(): void {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

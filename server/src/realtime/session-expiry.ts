/** setTimeout's longest delay (about 24.8 days); a JWT_EXPIRES_IN such as `90d` is longer. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `expire` once, at `expiresAt` (ms since the epoch), through as many timers as a long lifetime needs (a longer
 * delay would make Node fire at once); the returned function cancels it. The timers never keep the process alive.
 */
export function atExpiry(expiresAt: number, expire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = expiresAt - Date.now();
    if (left <= 0) {
      timer = undefined;
      expire();
      return;
    }
    timer = setTimeout(arm, Math.min(left, LONGEST_TIMER_MS));
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}

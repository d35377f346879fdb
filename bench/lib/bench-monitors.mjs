// Pieces the alert bench shares with the others: creating many monitors through the API, and one lateness line.
import { api, f, log } from './measure.mjs';

/** POSTs every body (32 requests in flight); ids in the order given (undefined where refused). */
export async function createMonitors(base, token, bodies, concurrency = 32) {
  const ids = new Array(bodies.length);
  let failures = 0;
  let next = 0;
  let lastReport = Date.now();
  async function worker() {
    while (next < bodies.length) {
      const index = next;
      next += 1;
      const response = await api(base, token, 'POST', '/api/monitors', bodies[index]);
      if (response.status === 201) ids[index] = response.json().monitor.id;
      else if ((failures += 1) <= 3) log(`  monitor ${index} refused: ${response.status} ${response.text.slice(0, 200)}`);
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        log(`  created ${next}/${bodies.length}`);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, worker));
  return { ids, failures };
}

/** analyseArrivals' figures as one printed line. */
export function latenessLine(label, a) {
  return (
    `  ${label}: p50 ${f(a.p50)} ms, p99 ${f(a.p99)} ms, max ${f(a.max)} ms over ${a.onSlots} checks; ` +
    `missed ${a.missed} (${a.monitorsMissing} monitors), extra ${a.extra}`
  );
}

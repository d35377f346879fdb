// A loopback webhook receiver for benchmarks that turn notifications on: it answers every POST after a delay (a slow
// provider) with a chosen status, and counts what it received, so a benchmark can show that delivery never holds up
// checks or report ingestion.
import { createServer } from 'node:http';
import { api, sleep } from './measure.mjs';

export async function startAlertSink({ delayMs, status }) {
  const received = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      received.push(Date.now());
      await sleep(delayMs);
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    /** Posts received from `from` to `to` (epoch ms). */
    count: (from = 0, to = Infinity) => received.filter((at) => at >= from && at < to).length,
    close: () => new Promise((resolve) => server.close(() => resolve())).then(() => undefined),
  };
}

/**
 * Points every `kind` ('agent' or 'monitor') at the sink through the global settings: one webhook channel, and for
 * agents a CPU alert at `cpuThreshold` (the fleet reports CPU uniformly between 0 and 100, so episodes open and close
 * all the time).
 */
export async function routeAlertsToSink(base, token, sink, { kind, cpuThreshold = 50 }) {
  const created = await api(base, token, 'POST', '/api/notifications/channels', {
    name: 'bench sink',
    type: 'webhook',
    config: JSON.stringify({ url: sink.url }),
  });
  if (created.status !== 201) throw new Error(`channel create answered ${created.status}: ${created.text}`);
  const channel = created.json().data.id;
  const body =
    kind === 'agent'
      ? {
          target_type: 'global-agent',
          enabled: true,
          on_offline: true,
          on_recovery: true,
          on_cpu_threshold: true,
          cpu_threshold: cpuThreshold,
          channels: JSON.stringify([channel]),
        }
      : { target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: JSON.stringify([channel]) };
  const saved = await api(base, token, 'POST', '/api/notifications/settings', body);
  if (saved.status !== 200) throw new Error(`settings answered ${saved.status}: ${saved.text}`);
  return channel;
}

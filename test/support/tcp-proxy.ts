import { createServer, Server, Socket, connect } from 'node:net';
import { freePort } from './ports';

/**
 * How a cut looks to the client:
 * - `reset`: open connections are reset and new ones are accepted then reset (a crashed or restarting database);
 * - `refuse`: open connections are reset and nothing listens any more (ECONNREFUSED: the database host is up, the
 *   database is not);
 * - `blackhole`: connections stay open but nothing is forwarded either way, and new ones are accepted and never
 *   answered (a partition or a firewall dropping packets). Restoring delivers what was held back.
 */
export type CutMode = 'reset' | 'refuse' | 'blackhole';

/** A loopback TCP relay that a test can cut and restore, to make a database unreachable without stopping it. */
export interface TcpProxy {
  port: number;
  cut(mode?: CutMode): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const pairs = new Set<Pair>();
  let mode: CutMode | null = null;

  const forward = (pair: Pair) => {
    const upstream = connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => upstream.destroy());
    upstream.on('close', () => pair.client.destroy());
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
    pair.client.resume();
  };
  const hold = (pair: Pair) => {
    pair.client.unpipe();
    pair.client.pause();
    if (pair.upstream) {
      pair.upstream.unpipe();
      pair.upstream.pause();
    }
  };
  const release = (pair: Pair) => {
    if (!pair.upstream) return forward(pair);
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };
  const reset = (pair: Pair) => {
    pair.client.resetAndDestroy();
    pair.upstream?.destroy();
  };

  const server: Server = createServer((client) => {
    if (mode === 'reset' || mode === 'refuse') return void client.resetAndDestroy();
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    client.on('error', () => client.destroy());
    client.on('close', () => {
      pairs.delete(pair);
      pair.upstream?.destroy();
    });
    if (mode === 'blackhole') client.pause();
    else forward(pair);
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen();

  return {
    port,
    async cut(next: CutMode = 'reset') {
      mode = next;
      for (const pair of pairs) (next === 'blackhole' ? hold : reset)(pair);
      if (next === 'refuse') await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restore() {
      const previous = mode;
      mode = null;
      if (previous === 'refuse') await listen();
      if (previous === 'blackhole') for (const pair of pairs) release(pair);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) reset(pair);
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback TCP listener that accepts and closes connections, and can be stopped and started on the same port. */
export interface FakeTcpServer {
  port: number;
  /** Connections accepted so far. */
  connections: number;
  /** Stops listening (connections are then refused) and drops open connections. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpServer(host = '127.0.0.1'): Promise<FakeTcpServer> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const fake: FakeTcpServer = {
    port: 0,
    connections: 0,
    stop: async () => {
      const current = server;
      server = null;
      if (!current) return;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    start: async () => {
      if (server) return;
      const next = createServer((socket) => {
        fake.connections += 1;
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
        socket.end();
      });
      await new Promise<void>((resolve, reject) => {
        next.once('error', reject);
        next.listen(fake.port, host, () => resolve());
      });
      server = next;
      fake.port = (next.address() as AddressInfo).port;
    },
    close: () => fake.stop(),
  };
  await fake.start();
  return fake;
}

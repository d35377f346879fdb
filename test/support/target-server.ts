import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Arrival time (ms since epoch). */
  at: number;
}

/** A loopback HTTP target for monitors: answers with a settable status, records requests, can be stopped. */
export interface TargetServer {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Sets how `/` answers from now on. */
  respond(status: number, delayMs?: number): void;
  /** Sets how one exact path answers from now on, whatever `respond` says. */
  respondFor(path: string, status: number, delayMs?: number): void;
  countFor(path: string): number;
  close(): Promise<void>;
}

export async function startTargetServer(port = 0): Promise<TargetServer> {
  let status = 200;
  let delay = 0;
  const received: ReceivedRequest[] = [];
  const byPath = new Map<string, { status: number; delay: number }>();
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: Date.now() });
      const path = req.url ?? '/';
      if (path.startsWith('/redirect/')) {
        const hops = Number(path.split('/')[2]);
        res.writeHead(302, { location: hops > 1 ? `/redirect/${hops - 1}` : '/' }).end();
        return;
      }
      if (path === '/no-content') {
        res.writeHead(204).end();
        return;
      }
      const answer = byPath.get(path) ?? { status, delay };
      const reply = () => res.writeHead(answer.status, { 'content-type': 'text/plain' }).end('ok');
      if (answer.delay) setTimeout(reply, answer.delay);
      else reply();
    });
  };
  const server: Server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    respond(next, delayMs = 0) {
      status = next;
      delay = delayMs;
    },
    respondFor(path, next, delayMs = 0) {
      byPath.set(path, { status: next, delay: delayMs });
    },
    countFor: (path) => received.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

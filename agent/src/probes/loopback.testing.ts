import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import type { ProbeAssignment } from '@vigil/proto';

/** Waits for a condition, polling; fails after `timeoutMs`. */
export function waitUntil(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) return resolve();
      if (Date.now() > deadline) return reject(new Error('timed out'));
      setTimeout(poll, 10);
    };
    poll();
  });
}

function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** A TCP server on loopback that records when each connection came. */
export async function loopbackTcp() {
  const connections: number[] = [];
  const server = createTcpServer((socket) => {
    connections.push(Date.now());
    socket.destroy();
  });
  const port = await listen(server);
  return { port, connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An HTTP server on loopback; records each request's path and arrival, and how many are unanswered. */
export async function loopbackHttp(respond: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: Array<{ path: string; at: number }> = [];
  const state = { inFlight: 0 };
  const server = createHttpServer((req, res) => {
    requests.push({ path: req.url ?? '', at: Date.now() });
    state.inFlight += 1;
    res.on('close', () => (state.inFlight -= 1));
    respond(req, res);
  });
  // Kept-alive sockets would hold close() open until the checker's pool lets them go.
  server.keepAliveTimeout = 100;
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function tcpAssignment(monitorId: number, port: number, overrides: Partial<ProbeAssignment> = {}): ProbeAssignment {
  return {
    monitor_id: monitorId,
    revision: 'r1',
    type: 'tcp',
    interval: 60,
    timeout: 2,
    target: { hostname: '127.0.0.1', port },
    assertions: [],
    ...overrides,
  };
}

export function httpAssignment(monitorId: number, url: string, overrides: Partial<ProbeAssignment> = {}): ProbeAssignment {
  return {
    monitor_id: monitorId,
    revision: 'r1',
    type: 'http',
    interval: 60,
    timeout: 2,
    target: { url, method: 'GET', headers: {}, body: null, expectedStatus: 2, ignoreTls: false, maxRedirects: 0 },
    assertions: [],
    ...overrides,
  };
}

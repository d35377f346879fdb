import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { TestCertificate } from './certificates.testing';

/**
 * How the fake answers: `echo` sends each message back, `answer` replies `text` to each, `silent` never answers,
 * `close` closes every connection as soon as it opens, `refuse` answers the upgrade with HTTP 404.
 */
export type WebsocketBehaviour =
  { mode: 'echo' } | { mode: 'answer'; text: string } | { mode: 'silent' } | { mode: 'close' } | { mode: 'refuse' };

/** A loopback WebSocket server for checker tests; its behaviour can change between checks. */
export interface FakeWebsocketServer {
  url: string;
  port: number;
  /** Messages received, in order. */
  received: string[];
  /** Connections that ended with a close frame from the client (a clean close). */
  cleanCloses: number;
  behave(behaviour: WebsocketBehaviour): void;
  close(): Promise<void>;
}

export async function startWebsocketServer(options: { tls?: TestCertificate; host?: string } = {}): Promise<FakeWebsocketServer> {
  const host = options.host ?? '127.0.0.1';
  let behaviour: WebsocketBehaviour = { mode: 'echo' };
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }) : createHttpServer();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (_request, response) => response.writeHead(404).end('not a websocket endpoint'));
  const wss = new WebSocketServer({ noServer: true });
  const fake: FakeWebsocketServer = {
    url: '',
    port: 0,
    received,
    cleanCloses: 0,
    behave: (next) => (behaviour = next),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('upgrade', (request, socket, head) => {
    if (behaviour.mode === 'refuse') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (client) => {
      client.on('close', (code) => {
        if (code === 1000) fake.cleanCloses += 1;
      });
      if (behaviour.mode === 'close') {
        client.close(1011, 'going away');
        return;
      }
      client.on('message', (data, isBinary) => {
        const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
        received.push(text);
        if (behaviour.mode === 'echo') client.send(data, { binary: isBinary });
        else if (behaviour.mode === 'answer') client.send(behaviour.text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `${options.tls ? 'wss' : 'ws'}://${host.includes(':') ? `[${host}]` : host}:${fake.port}/`;
  return fake;
}

import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { TestCertificate } from './certificates.testing';

/** A loopback TLS server (plain: handshake then close; or HTTPS with a handler) whose certificate can be swapped. */
export interface FakeTlsServer {
  port: number;
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** Completed handshakes so far. */
  handshakes: number;
  /** Serves another certificate from the next handshake on. */
  setCertificate(certificate: TestCertificate): void;
  close(): Promise<void>;
}

export async function startTlsServer(
  certificate: TestCertificate,
  respond?: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<FakeTlsServer> {
  const sockets = new Set<Socket>();
  const server: TlsServer | HttpsServer = respond
    ? createHttpsServer({ cert: certificate.cert, key: certificate.key }, respond)
    : createTlsServer({ cert: certificate.cert, key: certificate.key }, (socket) => socket.end());
  const fake = {
    port: 0,
    url: '',
    handshakes: 0,
    setCertificate: (next: TestCertificate) => server.setSecureContext({ cert: next.cert, key: next.key }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', () => (fake.handshakes += 1));
  // A client refusing the certificate resets the handshake; that is the expected outcome of some specs.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `https://127.0.0.1:${fake.port}`;
  return fake;
}

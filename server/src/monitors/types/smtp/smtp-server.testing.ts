import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { TestCertificate } from '../../checkers/fakes/certificates.testing';

/** A loopback mail server (the `smtp-server` library) whose certificate and accepted password can be changed. */
export interface FakeSmtpServer {
  port: number;
  /** Sign-ins seen, by method (`PLAIN`, `LOGIN`). */
  signIns: string[];
  setCertificate(certificate: TestCertificate): void;
  /** The password `user` must sign in with. */
  setPassword(password: string): void;
  close(): Promise<void>;
}

export interface FakeSmtpOptions {
  certificate: TestCertificate;
  /** TLS from the first byte (SMTPS) rather than STARTTLS. */
  secure?: boolean;
  /** Leave STARTTLS out of the EHLO extensions. */
  hideStartTls?: boolean;
  /** The sign-in methods offered (default PLAIN and LOGIN). */
  authMethods?: string[];
  /** Words after `220 <name> ESMTP`. */
  banner?: string;
}

/** A mail server on 127.0.0.1 that signs in `user` with the password set (initially `secret`). */
export async function startSmtpServer(options: FakeSmtpOptions): Promise<FakeSmtpServer> {
  let password = 'secret';
  const signIns: string[] = [];
  const settings: SMTPServerOptions = {
    name: 'mx.vigil.test',
    banner: options.banner ?? 'Vigil fake',
    secure: options.secure ?? false,
    key: options.certificate.key,
    cert: options.certificate.cert,
    hideSTARTTLS: options.hideStartTls ?? false,
    authMethods: options.authMethods ?? ['PLAIN', 'LOGIN'],
    authOptional: true,
    logger: false,
    // Lingering connections are cut after a second, so a spec's teardown never waits long.
    closeTimeout: 1000,
    onAuth: (auth, _session, callback) => {
      signIns.push(auth.method);
      if (auth.username === 'user' && auth.password === password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
  };
  const server = new SMTPServer(settings);
  // A client refusing our certificate resets the handshake: an expected outcome of some specs.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    signIns,
    setCertificate: (next) => server.updateSecureContext({ key: next.key, cert: next.cert }),
    setPassword: (next) => (password = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A hostile or broken server: `greet` writes whatever it likes to each connection. */
export interface FakeRawServer {
  port: number;
  close(): Promise<void>;
}

export async function startRawServer(greet: (socket: Socket) => void): Promise<FakeRawServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    greet(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Greets with an endless multi-line banner (`220-…` forever), as fast as the client reads it. */
export function endlessBanner(socket: Socket): void {
  const line = Buffer.from(`220-${'x'.repeat(70)}\r\n`.repeat(64));
  const pump = () => {
    while (!socket.destroyed && socket.write(line));
    if (!socket.destroyed) socket.once('drain', pump);
  };
  pump();
}

/** Greets with one line that never ends. */
export function endlessLine(socket: Socket): void {
  socket.write('220 ');
  const chunk = Buffer.alloc(16 * 1024, 'y');
  const pump = () => {
    while (!socket.destroyed && socket.write(chunk));
    if (!socket.destroyed) socket.once('drain', pump);
  };
  pump();
}

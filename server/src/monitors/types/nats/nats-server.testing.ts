import { spawn } from 'node:child_process';
import { connect as netConnect, createServer, type AddressInfo, type Server } from 'node:net';
import { closedPort, type FakeServer } from '../../checkers/fakes/database-servers.testing';

/** A nats-server of the test's own (Debian's `nats-server`), e.g. one that wants a password, on a free loopback port. */
export interface OwnNatsServer {
  port: number;
  stop(): Promise<void>;
}

/** Starts `nats-server` with the given flags; resolves once it accepts connections, fails if it exits first. */
export async function startNatsServer(flags: string[]): Promise<OwnNatsServer> {
  const port = await closedPort();
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), ...flags], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; !(await accepts(port)); attempt += 1) {
    if (attempt > 100 || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`nats-server did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** A hostile server: sends one line that never ends (no CRLF), as fast as the client reads. */
export async function endlessLineServer(): Promise<FakeServer> {
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pour = () => {
      while (!socket.destroyed && socket.write(chunk));
    };
    socket.on('drain', pour);
    pour();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

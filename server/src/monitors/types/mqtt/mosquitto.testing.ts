import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestCertificate } from '../../checkers/fakes/certificates.testing';

/**
 * A Mosquitto broker of the test's own on loopback (the `mosquitto` Debian package): password authentication on
 * every listener, and a plain, a TLS, a WebSocket and a WebSocket-over-TLS listener on free ports. Mosquitto 2.0.11
 * refuses to start with WebSocket listeners alone, so the plain one also keeps it up.
 */
export interface TestMosquitto {
  username: string;
  password: string;
  ports: { mqtt: number; mqtts: number; ws: number; wss: number };
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

export async function startMosquitto(certificate: TestCertificate): Promise<TestMosquitto> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-mosquitto-'));
  const username = 'monitor';
  const password = 'broker-pw-7c1e';
  const ports = { mqtt: await freePort(), mqtts: await freePort(), ws: await freePort(), wss: await freePort() };
  await writeFile(join(dir, 'cert.pem'), certificate.cert);
  await writeFile(join(dir, 'key.pem'), certificate.key, { mode: 0o600 });
  await writeFile(join(dir, 'passwords'), '');
  await promisify(execFile)('mosquitto_passwd', ['-b', join(dir, 'passwords'), username, password]);
  const tls = [`certfile ${join(dir, 'cert.pem')}`, `keyfile ${join(dir, 'key.pem')}`];
  const config = [
    `user ${userInfo().username}`,
    'persistence false',
    `log_dest file ${join(dir, 'mosquitto.log')}`,
    'allow_anonymous false',
    `password_file ${join(dir, 'passwords')}`,
    `listener ${ports.mqtt} 127.0.0.1`,
    `listener ${ports.mqtts} 127.0.0.1`,
    ...tls,
    `listener ${ports.ws} 127.0.0.1`,
    'protocol websockets',
    `listener ${ports.wss} 127.0.0.1`,
    'protocol websockets',
    ...tls,
  ];
  await writeFile(join(dir, 'mosquitto.conf'), `${config.join('\n')}\n`);
  const broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => broker.once('exit', () => resolve()));
  const close = async () => {
    broker.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(Object.values(ports).map((port) => whenListening(port, broker)));
  } catch (error) {
    await close();
    throw error;
  }
  return { username, password, ports, close };
}

/** Waits until `port` accepts a connection, failing if the broker exits or takes longer than READY_TIMEOUT_MS. */
async function whenListening(port: number, broker: ChildProcess): Promise<void> {
  const until = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < until) {
    if (broker.exitCode !== null) throw new Error(`mosquitto exited with code ${broker.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket: Socket = connect({ host: '127.0.0.1', port });
      const answer = (value: boolean) => {
        socket.destroy();
        resolve(value);
      };
      socket.once('connect', () => answer(true));
      socket.once('error', () => answer(false));
      socket.setTimeout(500, () => answer(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`mosquitto did not listen on ${port} within ${READY_TIMEOUT_MS} ms`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server: Server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

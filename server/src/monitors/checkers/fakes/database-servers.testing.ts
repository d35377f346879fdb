import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

/** Loopback fakes for the database checkers' specs: servers that fail in the ways real ones do, on purpose. */

export interface FakeServer {
  port: number;
  close(): Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<FakeServer> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
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

/** Accepts connections and never says a word (a hung server, or a firewall that lets SYN through). */
export function silentServer(): Promise<FakeServer> {
  return listen(createServer(), new Set());
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = await silentServer();
  await server.close();
  return server.port;
}

/**
 * A PostgreSQL server as far as authentication: asks for a cleartext password, then refuses it with an error that
 * quotes it (no real server does; a checker must keep it out of the result all the same). With `tls`, answers an
 * SSLRequest with 'S' and talks TLS; without, answers 'N'.
 */
export function fakePostgresRefusingPasswords(tls?: { key: string; cert: string }): Promise<FakeServer & { passwords: string[] }> {
  const passwords: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((raw) => {
    let stream: Socket | TLSSocket = raw;
    let buffer = Buffer.alloc(0);
    let started = false;
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(length);
          if (code === 80877103) {
            // SSLRequest
            if (!tls) {
              stream.write('N');
              continue;
            }
            stream.off('data', onData);
            stream.write('S');
            stream = new TLSSocket(raw, { isServer: true, key: tls.key, cert: tls.cert });
            stream.on('error', () => undefined);
            stream.on('data', onData);
            return;
          }
          started = true;
          stream.write(message('R', int32(3)));
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const type = String.fromCharCode(buffer[0]);
        const password = buffer
          .subarray(5, length + 1)
          .toString('utf8')
          .replace(/\0$/, '');
        buffer = buffer.subarray(length + 1);
        if (type !== 'p') continue;
        passwords.push(password);
        const fields = ['SFATAL', 'VFATAL', 'C28P01', `Mpassword "${password}" authentication failed for user "alice"`];
        stream.end(message('E', Buffer.concat([...fields.map((field) => Buffer.from(`${field}\0`)), Buffer.from([0])])));
        return;
      }
    };
    stream.on('data', onData);
  });
  return listen(server, sockets).then((fake) => Object.assign(fake, { passwords }));
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

function message(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
}

/**
 * A Redis server that answers AUTH with an error quoting the password, PING with PONG, and anything else with an
 * error; over TLS with `tls`. Records the commands it received.
 */
export function fakeRedis(tls?: { key: string; cert: string }): Promise<FakeServer & { commands: string[][] }> {
  const commands: string[][] = [];
  const sockets = new Set<Socket>();
  const server = createServer((raw) => {
    const stream = tls ? new TLSSocket(raw, { isServer: true, key: tls.key, cert: tls.cert }) : raw;
    stream.on('error', () => undefined);
    let buffer = '';
    stream.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (let parsed = parseResp(buffer); parsed; parsed = parseResp(buffer)) {
        buffer = buffer.slice(parsed.length);
        commands.push(parsed.words);
        const [name, ...args] = parsed.words;
        if (/^auth$/i.test(name)) stream.write(`-WRONGPASS invalid password ${args[args.length - 1]}\r\n`);
        else if (/^ping$/i.test(name)) stream.write('+PONG\r\n');
        else if (/^quit$/i.test(name)) stream.end('+OK\r\n');
        else stream.write(`-ERR unknown command '${name}'\r\n`);
      }
    });
  });
  return listen(server, sockets).then((fake) => Object.assign(fake, { commands }));
}

/** One RESP array of bulk strings from the start of `text`, or null when it is not all there yet. */
function parseResp(text: string): { words: string[]; length: number } | null {
  const header = /^\*(\d+)\r\n/.exec(text);
  if (!header) return null;
  let at = header[0].length;
  const words: string[] = [];
  for (let i = 0; i < Number(header[1]); i++) {
    const bulk = /^\$(\d+)\r\n/.exec(text.slice(at));
    if (!bulk) return null;
    at += bulk[0].length;
    const size = Number(bulk[1]);
    if (text.length < at + size + 2) return null;
    words.push(Buffer.from(text.slice(at, at + size), 'latin1').toString('utf8'));
    at += size + 2;
  }
  return { words, length: at };
}

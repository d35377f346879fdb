import { createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * Brokers that misbehave on purpose, on loopback: `huge` accepts the connection and then announces a 16 MiB PUBLISH
 * and streams it for as long as the client reads; `http` answers like a web server. Each counts the bytes it sent.
 */
export type HostileMode = 'huge' | 'http';

export interface HostileBroker {
  port: number;
  /** Bytes written to clients so far. */
  sent(): number;
  close(): Promise<void>;
}

const CONNACK = Buffer.from([0x20, 0x02, 0x00, 0x00]);
const HUGE_BYTES = 16 * 1024 * 1024;
const CHUNK = Buffer.alloc(16 * 1024, 0x78);

export async function startHostileBroker(mode: HostileMode): Promise<HostileBroker> {
  const sockets = new Set<Socket>();
  let sent = 0;
  const write = (socket: Socket, bytes: Buffer) => {
    sent += bytes.length;
    return socket.write(bytes);
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      if (mode === 'http') {
        write(socket, Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
        return;
      }
      write(socket, CONNACK);
      write(socket, publishHeader('big', HUGE_BYTES));
      // Streams the announced payload while the client keeps reading (back-pressure pauses it).
      let left = HUGE_BYTES;
      const pump = () => {
        while (left > 0 && !socket.destroyed) {
          left -= CHUNK.length;
          if (!write(socket, CHUNK)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    sent: () => sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A QoS 0 PUBLISH's fixed header and topic, announcing `payloadBytes` to follow. */
function publishHeader(topic: string, payloadBytes: number): Buffer {
  const name = Buffer.from(topic);
  let remaining = 2 + name.length + payloadBytes;
  const length: number[] = [];
  do {
    const byte = remaining % 128;
    remaining = Math.floor(remaining / 128);
    length.push(remaining > 0 ? byte | 0x80 : byte);
  } while (remaining > 0);
  return Buffer.concat([Buffer.from([0x30, ...length, name.length >> 8, name.length & 0xff]), name]);
}

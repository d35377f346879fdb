import { createSocket, type RemoteInfo } from 'node:dgram';
import * as radius from 'radius';

/**
 * How the fake answers: `normal` accepts its one user and rejects the rest; `challenge` asks every right password for
 * a second factor; `silent` never answers; `forged` signs its answers with another secret; `garbage` sends bytes
 * that are no RADIUS answer.
 */
export type RadiusServerMode = 'normal' | 'challenge' | 'silent' | 'forged' | 'garbage';

export interface FakeRadiusServer {
  port: number;
  /** Access-Requests received, decoded under the shared secret (those that did not decode are left out). */
  requests: Array<Record<string, unknown>>;
  mode: RadiusServerMode;
  close(): Promise<void>;
}

/**
 * A RADIUS server on 127.0.0.1 (the `radius` package decodes and encodes): it knows one shared secret and one user.
 * A request that does not verify under the secret (its Message-Authenticator) is dropped, as real servers do.
 */
export async function startRadiusServer(secret: string, user: { name: string; password: string }): Promise<FakeRadiusServer> {
  const socket = createSocket('udp4');
  const server: FakeRadiusServer = {
    port: 0,
    requests: [],
    mode: 'normal',
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (packet: Buffer, peer: RemoteInfo) => {
    const answer = answerTo(server, packet, secret, user);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  server.port = socket.address().port;
  return server;
}

function answerTo(server: FakeRadiusServer, packet: Buffer, secret: string, user: { name: string; password: string }): Buffer | null {
  let request: ReturnType<typeof radius.decode>;
  try {
    request = radius.decode({ packet, secret });
  } catch {
    return null;
  }
  server.requests.push(request.attributes as Record<string, unknown>);
  if (server.mode === 'silent') return null;
  if (server.mode === 'garbage') return Buffer.concat([packet.subarray(0, 2), Buffer.alloc(500, 0xff)]);
  const attributes = request.attributes as Record<string, unknown>;
  const known = attributes['User-Name'] === user.name && attributes['User-Password'] === user.password;
  const code = !known ? 'Access-Reject' : server.mode === 'challenge' ? 'Access-Challenge' : 'Access-Accept';
  return radius.encode_response({
    packet: request,
    code,
    secret: server.mode === 'forged' ? `${secret}-forged` : secret,
    attributes: known ? [] : [['Reply-Message', 'Unknown user or wrong password']],
  });
}

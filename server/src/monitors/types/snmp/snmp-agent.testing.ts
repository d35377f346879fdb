import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import * as snmp from 'net-snmp';

/** The fake agent's scalars (a private enterprise arc), by what they hold. */
export const SNMP_OIDS = {
  text: '1.3.6.1.4.1.99999.1.0',
  number: '1.3.6.1.4.1.99999.2.0',
  counter64: '1.3.6.1.4.1.99999.3.0',
  bytes: '1.3.6.1.4.1.99999.4.0',
  /** Under the agent's tree but never registered: noSuchObject. */
  missing: '1.3.6.1.4.1.99999.9.0',
  /** A registered scalar's object without the `.0` instance: noSuchInstance. */
  noInstance: '1.3.6.1.4.1.99999.1.1',
} as const;

/** The v3 user the fake agent knows (authPriv, SHA + AES). */
export const SNMP_USER = {
  name: 'monitor',
  authProtocol: 'sha',
  authKey: 'auth-passphrase',
  privProtocol: 'aes',
  privKey: 'priv-passphrase',
} as const;

export interface FakeSnmpAgent {
  port: number;
  /** Sets the text scalar's value (SNMP_OIDS.text). */
  setText(value: string): void;
  /** Sets the number scalar's value (SNMP_OIDS.number). */
  setNumber(value: number): void;
  close(): Promise<void>;
}

/** A loopback socket on a free port, whatever port net-snmp asks to bind (it takes 0 for "161"). */
const loopbackDgram = {
  createSocket(type: 'udp4' | 'udp6'): Socket {
    const socket = createSocket(type);
    const bind = socket.bind.bind(socket) as (port: number, address: string) => Socket;
    return Object.assign(socket, { bind: () => bind(0, '127.0.0.1') });
  },
};

/**
 * A real net-snmp agent on 127.0.0.1 answering v1/v2c GETs with `community` and v3 GETs from SNMP_USER, with a text,
 * a number, a Counter64 and a binary scalar.
 */
export async function startSnmpAgent(community = 'public'): Promise<FakeSnmpAgent> {
  // The agent reports every request it refuses (a wrong community, a bad digest) here; tests judge the checker.
  const agent = snmp.createAgent({ dgramModule: loopbackDgram }, () => undefined);
  agent.getAuthorizer().addCommunity(community);
  agent.getAuthorizer().addUser({
    name: SNMP_USER.name,
    level: snmp.SecurityLevel.authPriv,
    authProtocol: snmp.AuthProtocols[SNMP_USER.authProtocol],
    authKey: SNMP_USER.authKey,
    privProtocol: snmp.PrivProtocols[SNMP_USER.privProtocol],
    privKey: SNMP_USER.privKey,
  });
  const mib = agent.getMib();
  const scalar = (name: string, oid: string, scalarType: snmp.ObjectType) =>
    mib.registerProvider({
      name,
      type: snmp.MibProviderType.Scalar,
      oid: oid.replace(/\.0$/, ''),
      scalarType,
      maxAccess: snmp.MaxAccess['read-only'],
    });
  scalar('text', SNMP_OIDS.text, snmp.ObjectType.OctetString);
  scalar('number', SNMP_OIDS.number, snmp.ObjectType.Integer);
  scalar('counter64', SNMP_OIDS.counter64, snmp.ObjectType.Counter64);
  scalar('bytes', SNMP_OIDS.bytes, snmp.ObjectType.OctetString);
  mib.setScalarValue('text', 'Vigil test switch');
  mib.setScalarValue('number', 42);
  mib.setScalarValue('counter64', Buffer.from('0000000100000000', 'hex'));
  mib.setScalarValue('bytes', Buffer.from([0x00, 0x1a, 0x2b, 0xff]));
  const socket = Object.values(agent.listener.sockets as Record<string, Socket>)[0];
  await new Promise<void>((resolve) => socket.once('listening', resolve));
  return {
    port: socket.address().port,
    setText: (value) => mib.setScalarValue('text', value),
    setNumber: (value) => mib.setScalarValue('number', value),
    close: () => new Promise<void>((resolve) => agent.close(() => resolve())),
  };
}

export interface HostileUdpServer {
  port: number;
  /** Datagrams received so far. */
  received: number;
  close(): Promise<void>;
}

/**
 * A UDP server on 127.0.0.1 that answers each datagram with what `answer` makes of it (nothing: silence), for the
 * agents and servers that misbehave: garbage, endless silence.
 */
export async function startUdpServer(answer: (request: Buffer) => Buffer[]): Promise<HostileUdpServer> {
  const socket = createSocket('udp4');
  const server = {
    port: 0,
    received: 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (request: Buffer, peer: RemoteInfo) => {
    server.received += 1;
    for (const datagram of answer(request)) socket.send(datagram, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  server.port = socket.address().port;
  return server;
}

import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import {
  AGENT_PROTOCOL_VERSION,
  type AgentHello,
  type AgentReport,
  type AgentToServerEvents,
  type ServerToAgentEvents,
} from '@vigil/proto';
import type { Session } from './users';

export type AgentSocket = Socket<ServerToAgentEvents, AgentToServerEvents>;

export const agentHello = (hostname: string, extra: Partial<AgentHello> = {}): AgentHello => ({
  hostname,
  ip_addresses: ['192.0.2.10'],
  os: 'Debian GNU/Linux 12',
  platform: 'linux',
  kernel: '6.1.0-18-amd64',
  arch: 'x64',
  cpu_model: 'Test CPU',
  cpu_cores: 2,
  agent_version: '0.1.0',
  interval: 5,
  ...extra,
});

export const agentReport = (extra: Partial<AgentReport> = {}): AgentReport => ({
  timestamp: Date.now(),
  cpu: 37.5,
  load: [0.5, 0.4, 0.3],
  memory_total: 8 * 1024 ** 3,
  memory_used: 2 * 1024 ** 3,
  disks: [{ mount: '/', fs: 'ext4', total: 100 * 1024 ** 3, used: 40 * 1024 ** 3 }],
  interfaces: [{ name: 'eth0', rx_rate: 128, tx_rate: 64, rx_bytes: 1e9, tx_bytes: 5e8 }],
  uptime: 86_400,
  ...extra,
});

/** Generates a registration token as `session` and trades it for an agent credential. */
export async function enrollAgent(url: string, session: Session, hostname: string): Promise<{ agentId: number; credential: string }> {
  const { body: token } = await request(url).post('/api/agents/token/generate').set(session.auth).expect(200);
  const { body } = await request(url)
    .post('/api/agents/enroll')
    .send({ token: token.token, hello: agentHello(hostname) })
    .expect(200);
  return { agentId: body.agent_id, credential: body.credential };
}

/** An agent socket that has said hello, speaking `protocol` (this build's by default); the caller disconnects it. */
export async function connectAgent(
  url: string,
  credential: string,
  hostname: string,
  protocol: number = AGENT_PROTOCOL_VERSION,
): Promise<AgentSocket> {
  const socket: AgentSocket = io(`${url}/agent`, {
    auth: { protocol, credential },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const answer = await socket.timeout(5000).emitWithAck('hello', agentHello(hostname));
  if (!answer.ok) throw new Error(`hello refused: ${JSON.stringify(answer)}`);
  return socket;
}

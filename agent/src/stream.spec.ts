import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { AGENT_PROTOCOL_VERSION, type AgentHello, type AgentReport } from '@vigil/proto';
import type { FatalError } from './enroll';
import { ReportStream } from './stream';

const hello: AgentHello = { hostname: 'h', ip_addresses: [], os: 'Linux', platform: 'linux', agent_version: 't' };
const report = (timestamp: number): AgentReport => ({ timestamp, cpu: 1, memory_total: 10, memory_used: 5, disks: [], interfaces: [] });

function waitUntil(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) return resolve();
      if (Date.now() > deadline) return reject(new Error('timed out'));
      setTimeout(poll, 20);
    };
    poll();
  });
}

describe('report stream against a socket.io server', () => {
  let http: HttpServer;
  let io: Server;
  let url: string;
  const received: Array<{ event: string; payload: unknown; at: number }> = [];
  /** Times of the handshakes of the `vga_busy` agent, whose first one is refused for its rate. */
  const handshakes: number[] = [];
  /** Times of the handshakes of the `vga_upgrade` agent, refused for its protocol until the "server is upgraded". */
  const upgradeHandshakes: number[] = [];
  /** Messages of each kind the fake server refuses for their rate before it accepts again. */
  const limited: Record<string, number> = {};
  const streams: ReportStream[] = [];

  beforeAll(async () => {
    http = createServer();
    io = new Server(http);
    const agents = io.of('/agent');
    agents.use((socket, next) => {
      if (socket.handshake.auth.credential === 'vga_busy' && socket.handshake.auth.protocol === AGENT_PROTOCOL_VERSION) {
        handshakes.push(Date.now());
        if (handshakes.length === 1) {
          const busy = new Error('slow down') as Error & { data?: unknown };
          busy.data = { code: 'agent.rateLimited', message: 'slow down', retry_after: 2 };
          return next(busy);
        }
        return next();
      }
      if (socket.handshake.auth.credential === 'vga_upgrade') {
        upgradeHandshakes.push(Date.now());
        if (upgradeHandshakes.length < 3) {
          const old = new Error('old protocol') as Error & { data?: unknown };
          old.data = { code: 'agent.protocolUnsupported', message: 'this server accepts agent protocol versions 3 to 4' };
          return next(old);
        }
        return next();
      }
      if (socket.handshake.auth.credential === 'vga_good' && socket.handshake.auth.protocol === AGENT_PROTOCOL_VERSION) return next();
      const error = new Error('refused') as Error & { data?: unknown };
      error.data = { code: 'agent.credentialInvalid', message: 'Agent credential is invalid' };
      next(error);
    });
    agents.on('connection', (socket) => {
      for (const event of ['hello', 'report', 'backlog']) {
        socket.on(event, (payload: unknown, ack: (answer: unknown) => void) => {
          received.push({ event, payload, at: Date.now() });
          if (limited[event] > 0) {
            limited[event] -= 1;
            return ack({ ok: false, code: 'agent.rateLimited', message: 'slow down', retry_after: 1 });
          }
          ack(event === 'hello' ? { ok: true, interval: 7 } : { ok: true });
        });
      }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
    received.length = 0;
    for (const event of Object.keys(limited)) delete limited[event];
  });
  afterAll(async () => {
    io.close();
    await new Promise((resolve) => http.close(resolve));
  });

  function open(credential: string, protocolRetryMs?: number) {
    const fatal: FatalError[] = [];
    const intervals: number[] = [];
    const stream = new ReportStream({
      server: url,
      credential,
      hello: async () => hello,
      onInterval: (s) => intervals.push(s),
      onFatal: (e) => fatal.push(e),
      protocolRetryMs,
    });
    streams.push(stream);
    return { stream, fatal, intervals };
  }

  it('says hello, adopts the interval the server answers, and sends reports', async () => {
    const { stream, intervals } = open('vga_good');
    // The server has the hello before the agent has its answer: wait for the answer.
    await waitUntil(() => intervals.length > 0);
    expect(intervals).toEqual([7]);
    await stream.send(report(1));
    expect(received.map((r) => r.event)).toEqual(['hello', 'report']);
  });

  it('keeps reports made before the connection and sends them as one backlog, oldest first', async () => {
    const { stream } = open('vga_good');
    await stream.send(report(1));
    await stream.send(report(2));
    await waitUntil(() => received.some((r) => r.event === 'backlog'));
    const backlog = received.find((r) => r.event === 'backlog')!.payload as AgentReport[];
    expect(backlog.map((r) => r.timestamp)).toEqual([1, 2]);
    await stream.send(report(3));
    expect(received.filter((r) => r.event === 'report').map((r) => (r.payload as AgentReport).timestamp)).toEqual([3]);
  });

  it('gives up on a refused credential with exit code 3 and a clear message', async () => {
    const { fatal } = open('vga_bad');
    await waitUntil(() => fatal.length > 0);
    expect(fatal[0].exitCode).toBe(3);
    expect(fatal[0].message).toMatch(/refused this agent: Agent credential is invalid/);
  });

  it('keeps asking at a steady pace while the server refuses its protocol version, and reports once it is served', async () => {
    const warnings: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => warnings.push(String(chunk)) > 0);
    try {
      const { stream, intervals, fatal } = open('vga_upgrade', 400);
      await waitUntil(() => intervals.length > 0);
      expect(fatal).toEqual([]);
      expect(upgradeHandshakes).toHaveLength(3);
      expect(upgradeHandshakes[1] - upgradeHandshakes[0]).toBeGreaterThanOrEqual(390);
      expect(upgradeHandshakes[2] - upgradeHandshakes[1]).toBeGreaterThanOrEqual(390);
      expect(warnings.filter((line) => line.includes(`refused this agent's protocol version ${AGENT_PROTOCOL_VERSION}`))).toHaveLength(2);
      expect(warnings[0]).toMatch(/accepts agent protocol versions 3 to 4\. Reports are kept; asking again in 1 s/);
      await stream.send(report(1));
      expect(received.map((r) => r.event)).toEqual(['hello', 'report']);
    } finally {
      stderr.mockRestore();
    }
  });

  it('stops when the server says the agent was deleted', async () => {
    const { fatal } = open('vga_good');
    await waitUntil(() => received.some((r) => r.event === 'hello'));
    io.of('/agent').emit('agent.error', { code: 'agent.revoked', message: 'This agent was deleted on the server' });
    await waitUntil(() => fatal.length > 0);
    expect(fatal[0]).toMatchObject({ exitCode: 3, message: expect.stringMatching(/deleted on the server/) });
  });

  describe('when the server refuses for rate', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const of = (event: string) => received.filter((r) => r.event === event);

    it('keeps the backlog and sends it again once, after the wait the server asked for', async () => {
      limited.backlog = 1;
      const { stream } = open('vga_good');
      await stream.send(report(1));
      await waitUntil(() => of('backlog').length === 2);
      const [refused, accepted] = of('backlog');
      expect(accepted.at - refused.at).toBeGreaterThanOrEqual(950);
      expect(accepted.payload).toEqual(refused.payload);
      await sleep(1_500);
      expect(of('backlog')).toHaveLength(2);
    });

    it('holds a refused live report and everything after it until the wait is over, then sends them in order', async () => {
      const { stream, intervals } = open('vga_good');
      await waitUntil(() => intervals.length > 0);
      limited.report = 1;
      await stream.send(report(1));
      await stream.send(report(2));
      await stream.send(report(3));
      expect(of('report')).toHaveLength(1);
      expect(of('backlog')).toHaveLength(0);
      await waitUntil(() => of('backlog').length === 1);
      expect(of('backlog')[0].at - of('report')[0].at).toBeGreaterThanOrEqual(950);
      expect((of('backlog')[0].payload as AgentReport[]).map((r) => r.timestamp)).toEqual([1, 2, 3]);
    });

    it('connects again after a handshake refused for rate, no sooner than the server asked', async () => {
      const { intervals, fatal } = open('vga_busy');
      await waitUntil(() => intervals.length > 0, 10_000);
      expect(handshakes).toHaveLength(2);
      expect(handshakes[1] - handshakes[0]).toBeGreaterThanOrEqual(1_950);
      expect(fatal).toEqual([]);
    });

    it('says hello again after the wait, without giving up', async () => {
      limited.hello = 1;
      const { intervals, fatal } = open('vga_good');
      await waitUntil(() => intervals.length > 0);
      const [refused, accepted] = of('hello');
      expect(accepted.at - refused.at).toBeGreaterThanOrEqual(950);
      expect(of('hello')).toHaveLength(2);
      expect(fatal).toEqual([]);
    });
  });
});

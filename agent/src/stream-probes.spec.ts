import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { PROBE_LIMITS, type AgentAck, type AgentHello, type ProbeAssignmentsMessage, type ProbeResultReport } from '@vigil/proto';
import { ReportBuffer } from './buffer';
import { waitUntil } from './probes/loopback.testing';
import { ReportStream } from './stream';

const hello: AgentHello = { hostname: 'h', ip_addresses: [], os: 'Linux', platform: 'linux', agent_version: 't' };
const result = (checkedAt: number): ProbeResultReport => ({
  monitor_id: 5,
  checked_at: checkedAt,
  ok: true,
  status_code: 200,
  response_time: 3,
  error: null,
});
const fullSet: ProbeAssignmentsMessage = {
  full: true,
  upsert: [
    { monitor_id: 5, revision: 'a', type: 'tcp', interval: 60, timeout: 5, target: { hostname: '127.0.0.1', port: 1 }, assertions: [] },
  ],
  remove: [],
};

describe('results of assigned checks over the agent socket', () => {
  let http: HttpServer;
  let io: Server;
  let url: string;
  const batches: Array<{ results: ProbeResultReport[]; at: number }> = [];
  /** How the fake server answers each `probe.results`, in turn; `ok` once these run out. */
  let answers: Array<AgentAck | 'drop the socket'> = [];
  let helloes = 0;
  const streams: ReportStream[] = [];
  let warnings: string[] = [];

  beforeAll(async () => {
    http = createServer();
    io = new Server(http);
    io.of('/agent').on('connection', (socket: Socket) => {
      socket.on('hello', (_hello: AgentHello, ack: (answer: AgentAck) => void) => {
        helloes += 1;
        ack({ ok: true });
        socket.emit('probes', fullSet);
      });
      socket.on('probe.results', (results: ProbeResultReport[], ack: (answer: AgentAck) => void) => {
        batches.push({ results, at: Date.now() });
        const answer = answers.shift() ?? { ok: true };
        if (answer === 'drop the socket') socket.disconnect(true);
        else ack(answer);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    warnings = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => warnings.push(String(chunk)) > 0);
    jest.spyOn(process.stdout, 'write').mockReturnValue(true);
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
    jest.restoreAllMocks();
    batches.length = 0;
    answers = [];
    helloes = 0;
  });
  afterAll(async () => {
    io.close();
    await new Promise((resolve) => http.close(resolve));
  });

  function open() {
    const results = new ReportBuffer<ProbeResultReport>(PROBE_LIMITS.bufferMax);
    const applied: ProbeAssignmentsMessage[] = [];
    const stream = new ReportStream({
      server: url,
      credential: 'vga_good',
      hello: async () => hello,
      onInterval: () => undefined,
      onFatal: () => undefined,
      probes: { apply: (message) => applied.push(message), results },
    });
    streams.push(stream);
    return { stream, results, applied };
  }

  it('applies the set the server assigns after hello', async () => {
    const { applied } = open();
    await waitUntil(() => applied.length === 1);
    expect(applied[0]).toEqual(fullSet);
  });

  it('sends buffered results oldest first, at most resultsMax a message, and forgets them once acknowledged', async () => {
    const { results } = open();
    for (let i = 0; i < PROBE_LIMITS.resultsMax * 2 + 10; i += 1) results.push(result(i));
    await waitUntil(() => results.size === 0, 8_000);
    expect(batches.map((batch) => batch.results.length)).toEqual([PROBE_LIMITS.resultsMax, PROBE_LIMITS.resultsMax, 10]);
    const sent = batches.flatMap((batch) => batch.results.map((item) => item.checked_at));
    expect(sent).toEqual(Array.from({ length: sent.length }, (_, i) => i));
    expect(batches[1].at - batches[0].at).toBeGreaterThanOrEqual(PROBE_LIMITS.flushMs - 50);
  });

  it('drops what the server refused item by item with one warning for the message', async () => {
    answers = [{ ok: true, refused: [{ error: 'results[0]: monitor 5 is not assigned to this agent' }, { error: 'results[1]: same' }] }];
    const { results } = open();
    results.push(result(1));
    results.push(result(2));
    await waitUntil(() => batches.length === 1 && results.size === 0);
    expect(warnings.filter((line) => line.includes('refused'))).toHaveLength(1);
    expect(warnings.join('')).toMatch(/2 of 2 results of assigned checks refused, first: results\[0\]: monitor 5 is not assigned/);
  });

  it('holds results the server refused for rate and sends them again once its wait is over', async () => {
    answers = [{ ok: false, code: 'agent.rateLimited', message: 'slow down', retry_after: 1 }];
    const { results } = open();
    results.push(result(1));
    await waitUntil(() => batches.length === 2);
    expect(batches[1].at - batches[0].at).toBeGreaterThanOrEqual(950);
    expect(batches[1].results).toEqual(batches[0].results);
    await waitUntil(() => results.size === 0);
  });

  it('keeps results unanswered when the connection drops and sends them after the reconnect, with the set applied again', async () => {
    answers = ['drop the socket'];
    const { results, applied } = open();
    results.push(result(1));
    await waitUntil(() => batches.length === 1);
    results.push(result(2));
    await waitUntil(() => batches.length === 2, 8_000);
    expect(helloes).toBe(2);
    expect(batches[1].results.map((item) => item.checked_at)).toEqual([1, 2]);
    expect(applied.map((message) => message.full)).toEqual([true, true]);
    await waitUntil(() => results.size === 0);
  });
});

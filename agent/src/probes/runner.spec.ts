import type { ProbeAssignment, ProbeResultReport } from '@vigil/proto';
import { createProbeCheckers, ProbeChecks } from './checks';
import { httpAssignment, loopbackHttp, loopbackTcp, tcpAssignment, waitUntil } from './loopback.testing';
import { ProbeRunner, type ProbeRunnerOptions } from './runner';

describe('probe runner', () => {
  const checks = new ProbeChecks(createProbeCheckers('probe-test'));
  let tcp: Awaited<ReturnType<typeof loopbackTcp>>;
  let http: Awaited<ReturnType<typeof loopbackHttp>>;
  /** Milliseconds each HTTP answer is held back, per test. */
  let holdMs = 0;
  const runners: ProbeRunner[] = [];
  /** Every result in the order the runner got it. */
  let seen: ProbeResultReport[] = [];
  /** Each run's start and end, and the most runs under way at once, as the runner's `run` saw them. */
  let runs: { spans: Array<{ id: number; start: number; end?: number }>; inFlight: number; maxInFlight: number };
  let output: jest.SpyInstance[] = [];
  const warnings = () => (output[1].mock.calls as string[][]).map(([line]) => String(line));

  beforeAll(async () => {
    tcp = await loopbackTcp();
    http = await loopbackHttp((_req, res) => setTimeout(() => res.end('ok'), holdMs));
  });
  beforeEach(() => {
    holdMs = 0;
    seen = [];
    runs = { spans: [], inFlight: 0, maxInFlight: 0 };
    output = [jest.spyOn(process.stdout, 'write').mockReturnValue(true), jest.spyOn(process.stderr, 'write').mockReturnValue(true)];
  });
  afterEach(async () => {
    for (const runner of runners.splice(0)) runner.stop();
    output.forEach((spy) => spy.mockRestore());
    // A run under way when its runner stopped still ends: the next test starts on an idle server.
    await waitUntil(() => http.state.inFlight === 0);
    http.requests.length = 0;
  });
  afterAll(async () => {
    await checks.close();
    await Promise.all([tcp.close(), http.close()]);
  });

  function runner(options: Omit<ProbeRunnerOptions, 'run'> = {}) {
    // This test's lists: a run of an earlier test's runner may still end during this one.
    const [results, mine] = [seen, runs];
    const sut = new ProbeRunner({
      ...options,
      run: async (assignment: ProbeAssignment) => {
        const span: (typeof mine.spans)[number] = { id: assignment.monitor_id, start: Date.now() };
        mine.spans.push(span);
        mine.inFlight += 1;
        mine.maxInFlight = Math.max(mine.maxInFlight, mine.inFlight);
        const result = await checks.run(assignment);
        mine.inFlight -= 1;
        span.end = Date.now();
        results.push(result);
        return result;
      },
    });
    runners.push(sut);
    return sut;
  }
  const resultsOf = (id: number) => seen.filter((result) => result.monitor_id === id);
  const requestsTo = (path: string) => http.requests.filter((request) => request.path === path);

  it('applies a full set, then added, changed and removed checks by monitor id', async () => {
    const sut = runner({ random: () => 0 });
    sut.apply({ full: true, upsert: [tcpAssignment(1, tcp.port), tcpAssignment(2, tcp.port), tcpAssignment(3, tcp.port)], remove: [] });
    await waitUntil(() => seen.length === 3);
    expect(seen.map((result) => result.monitor_id).sort()).toEqual([1, 2, 3]);
    expect(seen.every((result) => result.ok)).toBe(true);

    // 1 is resent unchanged: it keeps its schedule and does not run again now.
    sut.apply({ full: false, upsert: [tcpAssignment(1, tcp.port), tcpAssignment(4, tcp.port)], remove: [2] });
    await waitUntil(() => resultsOf(4).length === 1);
    expect(sut.size).toBe(3);

    // A full set drops what it leaves out (3, 4) and restarts what changed (1).
    sut.apply({ full: true, upsert: [tcpAssignment(1, tcp.port, { revision: 'r2' })], remove: [] });
    await waitUntil(() => resultsOf(1).length === 2);
    expect(sut.size).toBe(1);
    expect(seen.map((result) => result.monitor_id)).toHaveLength(5);
    expect(warnings()).toEqual([]);
  });

  it('stops running a removed check', async () => {
    const sut = runner({ random: () => 0 });
    sut.apply({
      full: true,
      upsert: [tcpAssignment(1, tcp.port, { interval: 0.1 }), tcpAssignment(2, tcp.port, { interval: 0.1 })],
      remove: [],
    });
    await waitUntil(() => resultsOf(2).length >= 2);
    sut.apply({ full: false, upsert: [], remove: [2] });
    const runsOf2 = resultsOf(2).length;
    const runsOf1 = resultsOf(1).length;
    await waitUntil(() => resultsOf(1).length >= runsOf1 + 3);
    // One run of 2 may have been under way when it was removed.
    expect(resultsOf(2).length).toBeLessThanOrEqual(runsOf2 + 1);
  });

  it('keeps the rhythm of a check resent with the same revision and starts a changed one over', async () => {
    const sut = runner({ random: () => 0.25 });
    const first = httpAssignment(1, `${http.url}/a`, { interval: 2 });
    sut.apply({ full: true, upsert: [first], remove: [] });
    await waitUntil(() => requestsTo('/a').length === 1);
    // A restarted schedule would run it again a quarter interval from now instead of a whole one.
    sut.apply({ full: true, upsert: [first], remove: [] });
    await waitUntil(() => requestsTo('/a').length === 2);
    const [one, two] = requestsTo('/a');
    expect(two.at - one.at).toBeGreaterThanOrEqual(1_900);

    const changedAt = Date.now();
    sut.apply({ full: false, upsert: [httpAssignment(1, `${http.url}/b`, { interval: 2, revision: 'r2' })], remove: [] });
    await waitUntil(() => requestsTo('/b').length === 1);
    // A quarter of the new interval after the change, not on the old rhythm (a whole interval after the last run).
    expect(requestsTo('/b')[0].at - changedAt).toBeGreaterThanOrEqual(450);
    expect(requestsTo('/b')[0].at - changedAt).toBeLessThan(1_500);
    expect(requestsTo('/a')).toHaveLength(2);
  });

  it('spreads the first runs over the interval instead of starting every check at once', async () => {
    const sut = runner();
    const appliedAt = Date.now();
    sut.apply({ full: true, upsert: Array.from({ length: 20 }, (_, i) => tcpAssignment(i + 1, tcp.port, { interval: 2 })), remove: [] });
    await waitUntil(() => new Set(seen.map((result) => result.monitor_id)).size === 20);
    const firsts = Array.from({ length: 20 }, (_, i) => resultsOf(i + 1)[0].checked_at - appliedAt);
    expect(Math.min(...firsts)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...firsts)).toBeLessThan(2_000 + 300);
    expect(Math.max(...firsts) - Math.min(...firsts)).toBeGreaterThan(500);
  });

  it('never runs one monitor twice at a time: a run due while the last one lasts waits for it', async () => {
    holdMs = 600;
    const sut = runner({ random: () => 0 });
    sut.apply({ full: true, upsert: [httpAssignment(1, `${http.url}/slow`, { interval: 0.2, timeout: 5 })], remove: [] });
    await waitUntil(() => resultsOf(1).length >= 3);
    for (let i = 1; i < runs.spans.length; i += 1) expect(runs.spans[i].start).toBeGreaterThanOrEqual(runs.spans[i - 1].end!);
    expect(runs.maxInFlight).toBe(1);
    expect(sut.lateStarts).toBeGreaterThanOrEqual(2);
    expect(resultsOf(1).every((result) => result.ok)).toBe(true);
  });

  it('runs at most its concurrency of checks at once and starts the rest late, as slots free up', async () => {
    holdMs = 300;
    const sut = runner({ random: () => 0, concurrency: 5 });
    sut.apply({ full: true, upsert: Array.from({ length: 12 }, (_, i) => httpAssignment(i + 1, `${http.url}/m${i + 1}`)), remove: [] });
    await waitUntil(() => seen.length === 12);
    expect(runs.maxInFlight).toBe(5);
    expect(sut.lateStarts).toBe(7);
    expect(seen.every((result) => result.ok)).toBe(true);
    expect(warnings().filter((line) => line.includes('started late'))).toHaveLength(1);
  });

  it('keeps at most its bound of results, dropping the oldest with one warning', async () => {
    const sut = runner({ random: () => 0, bufferMax: 3 });
    sut.apply({ full: true, upsert: [tcpAssignment(1, tcp.port, { interval: 0.05 })], remove: [] });
    await waitUntil(() => seen.length >= 6);
    sut.stop();
    await waitUntil(() => sut.results.size + sut.results.dropped === seen.length);
    expect(sut.results.size).toBe(3);
    expect(sut.results.peek(10)).toEqual(seen.slice(-3));
    expect(sut.results.dropped).toBe(seen.length - 3);
    expect(warnings().filter((line) => line.includes('dropped, oldest first, 1 so far'))).toHaveLength(1);
    expect(warnings().filter((line) => line.includes('dropped'))).toHaveLength(1);
  });
});

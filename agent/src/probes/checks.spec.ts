import type { ProbeAssignment } from '@vigil/proto';
import { createProbeCheckers, ProbeChecks } from './checks';
import { httpAssignment, loopbackHttp, loopbackTcp, tcpAssignment } from './loopback.testing';

describe('assigned checks run with the server’s checkers', () => {
  const sut = new ProbeChecks(createProbeCheckers('probe-test'));
  let tcp: Awaited<ReturnType<typeof loopbackTcp>>;
  let http: Awaited<ReturnType<typeof loopbackHttp>>;
  const userAgents: string[] = [];

  beforeAll(async () => {
    tcp = await loopbackTcp();
    http = await loopbackHttp((req, res) => {
      userAgents.push(req.headers['user-agent'] ?? '');
      if (req.url === '/missing') return res.writeHead(404).end('nope');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', version: '1.2' }));
    });
  });
  afterAll(async () => {
    await sut.close();
    await Promise.all([tcp.close(), http.close()]);
  });

  it('connects to a TCP port on loopback (every address is allowed) and reports the time to connect', async () => {
    const before = Date.now();
    const result = await sut.run(tcpAssignment(7, tcp.port));
    expect(result).toMatchObject({ monitor_id: 7, ok: true, status_code: null, error: null });
    expect(result.response_time).toEqual(expect.any(Number));
    expect(result.checked_at).toBeGreaterThanOrEqual(before);
    expect(tcp.connections.length).toBeGreaterThan(0);
  });

  it('reports a refused TCP port as down with the checker’s error', async () => {
    const closed = await loopbackTcp();
    await closed.close();
    const result = await sut.run(tcpAssignment(8, closed.port));
    expect(result).toMatchObject({ monitor_id: 8, ok: false, response_time: null, error: expect.stringMatching(/refused/i) });
  });

  it('judges an HTTP check’s assertions on this host', async () => {
    const holds = await sut.run(
      httpAssignment(9, `${http.url}/health`, { assertions: [{ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' }] }),
    );
    expect(holds).toMatchObject({ monitor_id: 9, ok: true, status_code: 200, error: null });
    const fails = await sut.run(
      httpAssignment(9, `${http.url}/health`, {
        assertions: [{ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'degraded' }],
      }),
    );
    expect(fails).toMatchObject({ ok: false, status_code: 200, error: expect.stringMatching(/\$\.status eq "degraded" failed/) });
  });

  it('marks a success whose soft assertion failed as soft, naming the assertion', async () => {
    const result = await sut.run(
      httpAssignment(10, `${http.url}/health`, {
        assertions: [{ source: 'body', operator: 'contains', value: '"version":"2', soft: true }],
      }),
    );
    expect(result).toMatchObject({ ok: true, soft: true, error: expect.stringContaining('contains') });
  });

  it('fails on an unexpected status as the server would', async () => {
    const result = await sut.run(httpAssignment(11, `${http.url}/missing`));
    expect(result).toMatchObject({ ok: false, status_code: 404, error: 'Unexpected status 404 (expected 2xx)' });
  });

  it('names the agent in the user agent of its HTTP requests, unless the monitor sets its own', async () => {
    const named = new ProbeChecks(createProbeCheckers('edge (eu) ü'));
    try {
      await named.run(httpAssignment(14, `${http.url}/health`));
      await named.run(
        httpAssignment(14, `${http.url}/health`, {
          target: { ...httpAssignment(14, '').target, url: `${http.url}/health`, headers: { 'user-agent': 'mine' } },
        }),
      );
    } finally {
      await named.close();
    }
    expect(userAgents.slice(-2)).toEqual(['Vigil-Monitor/1.0 (agent edge _eu_ _)', 'mine']);
  });

  it('answers a type this build cannot run with a failed result instead of throwing', async () => {
    const result = await sut.run({ ...tcpAssignment(12, tcp.port), type: 'smtp' } as unknown as ProbeAssignment);
    expect(result).toMatchObject({ monitor_id: 12, ok: false, status_code: null, error: 'This agent cannot run smtp checks' });
  });
});
